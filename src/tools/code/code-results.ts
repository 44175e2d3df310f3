// How the symbol tools answer: locations as `path:line:column` with the line's text, only
// inside the workspace and never in ignored or secret files (a language server knows about
// node_modules and the standard library; the model is told how many were left out), a page at
// a time with a cursor for the next, and a note saying which engine answered.
import type { CodeIntelAnswer, CodeLocation, Workspace } from '../../kernel/index.js';
import { visiblePathFilter } from '../ignore/path-filter.js';
import { decodeText } from '../text/encoding.js';

const CONTEXT_CHARS = 160;

export interface Shown<T> {
  items: T[];
  /** Left out: outside the workspace, ignored, or in a file that may hold secrets. */
  hidden: number;
}

/** The items whose path may be shown, in their order. */
export async function visibleOnly<T extends { path: string }>(ws: Workspace, items: readonly T[]): Promise<Shown<T>> {
  const visible = visiblePathFilter(ws);
  const byPath = new Map<string, boolean>();
  const out: T[] = [];
  for (const item of items) {
    let ok = byPath.get(item.path);
    if (ok === undefined) byPath.set(item.path, (ok = await visible(item.path)));
    if (ok) out.push(item);
  }
  return { items: out, hidden: items.length - out.length };
}

/** Reads each file once for the lines shown from it. */
export class LineReader {
  private readonly files = new Map<string, Promise<string[] | undefined>>();

  constructor(private readonly ws: Workspace) {}

  async line(path: string, line: number): Promise<string> {
    let lines = this.files.get(path);
    if (!lines) {
      lines = this.ws.readFile(path).then(
        (b) => decodeText(b).text.split('\n'),
        () => undefined,
      );
      this.files.set(path, lines);
    }
    const text = (await lines)?.[line - 1]?.replace(/\r$/, '').trim() ?? '';
    return text.length > CONTEXT_CHARS ? `${text.slice(0, CONTEXT_CHARS)}…` : text;
  }
}

export async function locationLine(reader: LineReader, l: CodeLocation, prefix = ''): Promise<string> {
  const text = await reader.line(l.path, l.line);
  return `${prefix}${l.path}:${l.line}:${l.column}${text ? `  ${text}` : ''}`;
}

/** A page of a list: where it starts (the cursor) and the cursor of the next page, if any. */
export function pageOf<T>(items: readonly T[], cursor: string | undefined, size: number): { page: T[]; start: number; next?: string } {
  const start = Math.min(parseCursor(cursor), items.length);
  const page = items.slice(start, start + size);
  const end = start + page.length;
  return end < items.length ? { page, start, next: String(end) } : { page, start };
}

function parseCursor(cursor: string | undefined): number {
  const n = cursor === undefined ? 0 : Number.parseInt(cursor, 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** One line saying which engine answered, so the model knows how far to trust a by-name match. */
export function engineNote(a: Pick<CodeIntelAnswer<unknown>, 'engine' | 'fallback'>): string {
  if (a.engine === 'language-server') return '(answered by the language server)';
  const why =
    a.fallback === 'language_server_failed'
      ? 'the language server failed, so '
      : a.fallback === 'no_language_server'
        ? 'no language server answered for this file, so '
        : '';
  return `(${why}Keel's syntax trees answered: names matched in code, not types — check ambiguous matches by reading them)`;
}

export function hiddenNote(hidden: number): string {
  return hidden > 0 ? `\n[${hidden} result${hidden === 1 ? '' : 's'} outside the workspace or in ignored or secret files left out.]` : '';
}

export const cursorSchemaDescription = 'From a previous answer, to get the next page.';

export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
