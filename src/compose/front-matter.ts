// Markdown files with YAML front matter, the shape every agent's customisation files share
// (skills, custom agents, slash commands): a line `---`, YAML fields, a line `---`, then the
// markdown body. A problem comes back with the line it is on (counted in the whole file),
// never as a half-read file.
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';

interface FrontMatter {
  /** The fields as plain data. */
  data: Record<string, unknown>;
  /** The 1-based line of a field's key; undefined when the field is absent. */
  lineOf(key: string): number | undefined;
  /** Everything after the closing line. */
  body: string;
}

export type ParsedFrontMatter = { ok: true; matter: FrontMatter } | { ok: false; line: number; message: string };

/** `required`: whether a file without front matter is a problem (else it is all body, no fields). */
export function parseFrontMatter(text: string, kind: string, required = true): ParsedFrontMatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') {
    if (!required) return { ok: true, matter: { data: {}, lineOf: () => undefined, body: lines.join('\n') } };
    return { ok: false, line: 1, message: `${kind} must start with a line "---" opening its YAML front matter` };
  }
  const close = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === '---' || l.trimEnd() === '...'));
  if (close < 0) return { ok: false, line: 1, message: 'the front matter is not closed by a line "---"' };
  const counter = new LineCounter();
  const doc = parseDocument(lines.slice(1, close).join('\n'), { lineCounter: counter, prettyErrors: true });
  // Lines in the front matter are counted from the line after the opening "---".
  const lineAt = (offset: number) => counter.linePos(offset).line + 1;
  const error = doc.errors[0];
  if (error)
    return {
      ok: false,
      line: lineAt(error.pos[0]),
      message: `invalid YAML: ${error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '')}`,
    };
  const body = lines.slice(close + 1).join('\n');
  // Empty front matter ("---" then "---") has no fields.
  if (doc.contents === null) return { ok: true, matter: { data: {}, lineOf: () => undefined, body } };
  if (!isMap(doc.contents)) return { ok: false, line: 2, message: 'the front matter must be a map of fields (name: …, description: …)' };
  const data = doc.toJS({ maxAliasCount: 10 }) as Record<string, unknown>;
  return { ok: true, matter: { data, lineOf: (key) => keyLine(doc, key, lineAt), body } };
}

function keyLine(doc: Document, key: string, lineAt: (offset: number) => number): number | undefined {
  if (!isMap(doc.contents)) return undefined;
  const pair = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === key);
  const range = pair && isScalar(pair.key) ? pair.key.range : undefined;
  return range ? lineAt(range[0]) : undefined;
}

/**
 * A list of names, or a line of them separated by commas or spaces (Claude Code writes
 * "Read, Grep"; the Agent Skills convention "Bash(git:*) Read"): a space inside parentheses
 * does not split. undefined: no list; null: not a list.
 */
export function nameList(value: unknown): string[] | undefined | null {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? value.map((v) => v.trim()).filter(Boolean) : null;
  if (typeof value !== 'string') return null;
  return value.match(/(?:[^\s,(]+(?:\([^)]*\))?)+/g) ?? [];
}
