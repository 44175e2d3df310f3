// The workspace modules a JavaScript file imports: static imports, re-exports, dynamic imports
// and require() of relative paths. Read with regular expressions, not a parser, because the
// file may not parse (that is why it is read): a false candidate only costs one syntax check,
// and where an error is comes from node's own parse (syntax-check.ts), never from this list.
import type { Workspace } from '../../kernel/index.js';

const RELATIVE = String.raw`(['"])(\.{1,2}/[^'"\n]+)\1`;
const SPECIFIERS = [
  new RegExp(String.raw`\b(?:import|export)\s[^'"\x60;]*?\bfrom\s*${RELATIVE}`, 'g'),
  new RegExp(String.raw`\bimport\s*${RELATIVE}`, 'g'),
  new RegExp(String.raw`\b(?:import|require)\s*\(\s*${RELATIVE}\s*\)`, 'g'),
];
/** The files node --check can parse: JavaScript, not TypeScript or JSON. */
export const CHECKABLE = /\.[cm]?js$/;
/** What node tries after a bare relative specifier (require's rules; ESM needs the extension written). */
const COMPLETIONS = ['', '.js', '.mjs', '.cjs', '/index.js', '/index.mjs', '/index.cjs'];

/** The relative specifiers of a module's source, in the order they appear, each once. */
export function relativeSpecifiers(source: string): string[] {
  const found: { at: number; spec: string }[] = [];
  for (const re of SPECIFIERS) for (const m of source.matchAll(re)) found.push({ at: m.index, spec: m[2]! });
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.spec))];
}

/** The workspace file a relative specifier of `from` names, when it is a JavaScript file inside the workspace. */
export async function resolveSpecifier(ws: Workspace, from: string, spec: string): Promise<string | undefined> {
  const base = joinPosix(from.includes('/') ? from.slice(0, from.lastIndexOf('/')) : '', spec.replace(/[?#].*$/, ''));
  if (base === undefined) return undefined;
  for (const suffix of COMPLETIONS) {
    const candidate = base + suffix;
    if (!CHECKABLE.test(candidate)) continue;
    const stat = await ws.stat(candidate).catch(() => undefined);
    if (stat?.type === 'file') return candidate;
  }
  return undefined;
}

/** dir + relative path, normalised; undefined when it climbs out of the root. */
function joinPosix(dir: string, relative: string): string | undefined {
  const parts: string[] = [];
  for (const part of [...dir.split('/'), ...relative.split('/')]) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (parts.pop() === undefined) return undefined;
  }
  return parts.join('/');
}
