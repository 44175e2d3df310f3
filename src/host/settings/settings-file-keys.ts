// Which settings a workspace's own files try to set. VS Code drops workspace values of
// application-scoped settings before an extension can see them, so to tell the user what was
// ignored Keel reads `.vscode/settings.json` (and a `.code-workspace` file's `settings`) itself.
// Pure: text in, dotted setting names out. JSONC as VS Code reads it: comments, trailing commas.
import { parseJsonc } from '../../kernel/jsonc.js';

/** Every setting name in a settings file, nested objects flattened (`{"keel": {"baseUrl": …}}`). */
export function settingKeysIn(text: string, section?: 'settings'): string[] {
  const root = parseJsonc(text);
  const scope = section ? (isObject(root) ? root[section] : undefined) : root;
  return isObject(scope) ? flatten(scope, '') : [];
}

function flatten(obj: Record<string, unknown>, prefix: string): string[] {
  const keys: string[] = [];
  for (const [name, value] of Object.entries(obj)) {
    // A language block (`"[python]": {…}`) holds settings too; its own name is not one.
    if (name.startsWith('[')) {
      if (isObject(value)) keys.push(...flatten(value, prefix));
      continue;
    }
    const key = `${prefix}${name}`;
    keys.push(key);
    if (isObject(value)) keys.push(...flatten(value, `${key}.`));
  }
  return keys;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
