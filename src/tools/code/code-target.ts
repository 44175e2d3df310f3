// What the symbol tools point at: a name, and optionally the file and line of one occurrence.
// The model knows names and lines (from read_file, search_files, a repo map), not columns, so
// the column is found here: the name as a whole word on that line. Without a line, the name's
// definitions (from find_symbol's engine) are the positions asked about.
import { z } from 'zod';
import type { CodeIntel, CodeLocation, Workspace } from '../../kernel/index.js';
import { decodeText } from '../text/encoding.js';
import { isSecretFile } from '../policy/protected-paths.js';
import { failure } from '../tool-result.js';
import type { ToolResult } from '../../kernel/index.js';

export const SymbolTargetSchema = z.object({
  symbol: z.string().min(1).max(200).describe('The name as written in the code, e.g. "parseConfig" or "Shape".'),
  path: z.string().optional().describe('A file where the name occurs; with line, that exact occurrence is meant.'),
  line: z.number().int().positive().optional().describe('The 1-based line of the occurrence in path.'),
});
export type SymbolTarget = z.infer<typeof SymbolTargetSchema>;

/** How many same-named definitions a call without a line looks at. */
const MAX_DEFINITIONS = 5;

export type ResolvedTarget =
  | { type: 'positions'; positions: CodeLocation[] /** More definitions by this name than were used. */; more: number }
  | { type: 'result'; result: ToolResult };

export async function resolveTarget(ws: Workspace, intel: CodeIntel, t: SymbolTarget, signal: AbortSignal): Promise<ResolvedTarget> {
  if (t.line !== undefined && t.path === undefined) return refuse('invalid_input', 'line needs path: give the file the line is in.');
  if (t.path === undefined) return byDefinitions(intel, t.symbol, signal);
  const path = await ws.resolve(t.path);
  if (isSecretFile(path)) return refuse('permission_denied', `${path} may hold secrets; the symbol tools do not read it.`);
  const text = decodeText(await ws.readFile(path)).text;
  const lines = text.split('\n');
  if (t.line !== undefined) {
    const row = lines[t.line - 1];
    if (row === undefined) return refuse('invalid_input', `${path} has ${lines.length} lines; there is no line ${t.line}.`);
    const column = wordColumn(row, t.symbol);
    if (column === undefined)
      return refuse('not_found', `"${t.symbol}" is not on line ${t.line} of ${path}. That line reads: ${row.trim().slice(0, 200)}`);
    return { type: 'positions', positions: [{ path, line: t.line, column }], more: 0 };
  }
  const defined = (await intel.outline(path, signal)).items.flatMap(function flat(s): CodeLocation[] {
    return [...(s.name === t.symbol ? [{ path, line: s.line, column: s.column }] : []), ...(s.children ?? []).flatMap(flat)];
  });
  if (defined.length > 0) return { type: 'positions', positions: defined.slice(0, 1), more: 0 };
  const at = lines.findIndex((row) => wordColumn(row, t.symbol) !== undefined);
  if (at < 0) return refuse('not_found', `"${t.symbol}" does not occur in ${path}.`);
  return { type: 'positions', positions: [{ path, line: at + 1, column: wordColumn(lines[at]!, t.symbol)! }], more: 0 };
}

async function byDefinitions(intel: CodeIntel, symbol: string, signal: AbortSignal): Promise<ResolvedTarget> {
  const found = await intel.findSymbols({ name: symbol, limit: 200 }, signal);
  const exact = found.items.filter((s) => s.name === symbol || s.name.endsWith(`.${symbol}`));
  if (exact.length === 0) {
    const near = found.items.slice(0, 5).map((s) => `${s.name} (${s.path}:${s.line})`);
    return refuse(
      'not_found',
      `No definition named "${symbol}" was found.${near.length ? ` Similar names: ${near.join(', ')}.` : ''} Try find_symbol with part of the name, or give path and line.`,
    );
  }
  const positions = exact.slice(0, MAX_DEFINITIONS).map((s) => ({ path: s.path, line: s.line, column: s.column }));
  return { type: 'positions', positions, more: exact.length - positions.length };
}

function refuse(code: Parameters<typeof failure>[0], message: string): ResolvedTarget {
  return { type: 'result', result: failure(code, message, { retryable: code !== 'permission_denied' }) };
}

/** The 1-based column of the name as a whole word in the line (UTF-16 units, as editors count). */
function wordColumn(line: string, name: string): number | undefined {
  let from = 0;
  for (let at = line.indexOf(name, from); at >= 0; at = line.indexOf(name, from)) {
    if (!isNameChar(line[at - 1]) && !isNameChar(line[at + name.length])) return at + 1;
    from = at + 1;
  }
  return undefined;
}

function isNameChar(ch: string | undefined): boolean {
  return ch !== undefined && /[\p{ID_Continue}$]/u.test(ch);
}
