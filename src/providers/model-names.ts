// What a custom agent's or command's `model` names, in the formats teams write it:
//   - Claude Code's aliases `sonnet`, `opus`, `haiku` (and `inherit`, the task's model);
//   - GitHub Copilot's display names, "Claude Sonnet 4", "GPT-4.1", "GPT-5 mini (copilot)";
//   - a model id as the vendor's API spells it ("claude-opus-4-1", "gpt-4.1"), dated or not.
// Each resolves against the models the header picker lists for each vendor (the model table),
// so a name maps only to a model Keel knows, and which vendor's it is is always known: a task
// never sends a request to another vendor than its own (keys and endpoints are per vendor).
import { pickerModels, VENDOR_IDS, type VendorId } from './registry.js';

export type ModelName = { type: 'inherit' } | { type: 'model'; vendor: VendorId; id: string } | { type: 'unknown' };

/** Claude Code's family aliases: the first (newest) model of the family the picker lists. */
const FAMILY_ALIASES: Record<string, { vendor: VendorId; family: string }> = {
  sonnet: { vendor: 'anthropic', family: 'sonnet' },
  opus: { vendor: 'anthropic', family: 'opus' },
  haiku: { vendor: 'anthropic', family: 'haiku' },
};

export function resolveModelName(written: string): ModelName {
  const name = written
    .trim()
    .toLowerCase()
    // Copilot's display names may carry the service in brackets: "GPT-5 mini (copilot)".
    .replace(/\s*\([^)]*\)\s*$/, '')
    .replace(/\s+/g, '-');
  if (name === '' || name === 'inherit') return { type: 'inherit' };
  const alias = FAMILY_ALIASES[name];
  if (alias) {
    const id = pickerModels(alias.vendor).find((m) => m.id.split('-').includes(alias.family))?.id;
    return id ? { type: 'model', vendor: alias.vendor, id } : { type: 'unknown' };
  }
  for (const vendor of VENDOR_IDS) {
    const id = pickedId(vendor, name);
    if (id) return { type: 'model', vendor, id };
  }
  return { type: 'unknown' };
}

/**
 * The picker's id a name spells: the id itself, a dated id (`claude-opus-4-1-20250805`, sent as
 * written), or a display name lowered and hyphened ("claude-sonnet-4.5" → claude-sonnet-4-5,
 * "claude-sonnet-4" → claude-sonnet-4-0).
 */
function pickedId(vendor: VendorId, name: string): string | undefined {
  const ids = pickerModels(vendor).map((m) => m.id);
  const dated = /^(.*)-\d{8}$/.exec(name);
  if (dated && ids.includes(dated[1]!)) return name;
  const hyphened = name.replace(/\./g, '-');
  for (const candidate of [name, hyphened, `${name}-0`, `${hyphened}-0`]) if (ids.includes(candidate)) return candidate;
  return undefined;
}
