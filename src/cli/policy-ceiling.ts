// The narrower of two run policies: what `keel resume` decides with (the flags given now, narrowed
// by the header of the log it continues) and what a fleet job runs under (its own approvals,
// narrowed by its worker's flags). Authority comes from the command line; the other side — a
// log's header, a queue message — may only take some away. Each side is a RunPolicy; the result
// keeps a risk only if both approve it, a command prefix only if both allow it, every deny rule of
// either, and the stricter sandbox mode. `narrowedBy` names what the second side took away.
import type { RunPolicy, SandboxMode } from '../kernel/index.js';

/** Sandbox modes from the least to the most sandboxed. */
const STRICTNESS: readonly SandboxMode[] = ['off', 'unasked', 'everything'];

export function narrowPolicy(given: RunPolicy, limit: RunPolicy): RunPolicy {
  const sandbox = stricter(given.sandbox, limit.sandbox);
  return {
    autoApprove: given.autoApprove.filter((r) => limit.autoApprove.includes(r)),
    approveUnclassified: given.approveUnclassified && limit.approveUnclassified,
    autoApproveMemory: (given.autoApproveMemory ?? false) && (limit.autoApproveMemory ?? false),
    commandsAllow: commonPrefixes(given.commandsAllow, limit.commandsAllow),
    commandsDeny: [...new Set([...given.commandsDeny, ...limit.commandsDeny])],
    ...(sandbox ? { sandbox } : {}),
  };
}

/** What of `given` the narrowing took away, in words for a notice (empty: nothing). */
export function narrowedBy(given: RunPolicy, narrowed: RunPolicy): string[] {
  const out: string[] = [];
  const lost = given.autoApprove.filter((r) => !narrowed.autoApprove.includes(r));
  if (lost.length) out.push(`approve ${lost.join(',')}`);
  if (given.approveUnclassified && !narrowed.approveUnclassified) out.push('approve all');
  if (given.autoApproveMemory && !narrowed.autoApproveMemory) out.push('approve memory');
  const allows = given.commandsAllow.filter((p) => !narrowed.commandsAllow.includes(p));
  if (allows.length) out.push(`allow-command ${allows.map((p) => `"${p}"`).join(', ')}`);
  if (given.sandbox !== undefined && narrowed.sandbox !== given.sandbox) out.push(`sandbox ${given.sandbox} (now ${narrowed.sandbox})`);
  return out;
}

/** The risks a policy approves, as --approve would write them. */
export function approveWords(p: RunPolicy): string {
  if (p.approveUnclassified && p.autoApproveMemory) return 'all';
  const words: string[] = [...p.autoApprove, ...(p.autoApproveMemory ? ['memory'] : [])];
  return words.join(',') || 'nothing';
}

function stricter(a: SandboxMode | undefined, b: SandboxMode | undefined): SandboxMode | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return STRICTNESS.indexOf(a) >= STRICTNESS.indexOf(b) ? a : b;
}

/**
 * The commands both lists allow: an allow prefix covers every command that starts with its
 * words, so of two prefixes where one starts the other, the longer is allowed by both.
 */
function commonPrefixes(a: readonly string[], b: readonly string[]): string[] {
  const out = new Set<string>();
  for (const x of a)
    for (const y of b) {
      if (startsWithWords(x, y)) out.add(x);
      else if (startsWithWords(y, x)) out.add(y);
    }
  return [...out];
}

function startsWithWords(longer: string, prefix: string): boolean {
  const l = words(longer);
  const p = words(prefix);
  return p.length <= l.length && p.every((w, i) => l[i] === w);
}

function words(prefix: string): string[] {
  return prefix.trim().split(/\s+/);
}
