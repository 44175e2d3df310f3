// find_references: every use of a name — the language server's references (resolved through
// imports and types), or, headless, the identifier in code (never in strings or comments) in
// files of the same language. A name used thousands of times is answered by file, with counts,
// and a page of uses with a cursor for the next: the observation stays within its budget.
import { z } from 'zod';
import type { CodeLocation, ToolDefinition } from '../../kernel/index.js';
import { errorResult } from '../tool-result.js';
import { cursorSchemaDescription, engineNote, hiddenNote, LineReader, locationLine, pageOf, plural, visibleOnly } from './code-results.js';
import { byPosition, locationKey, lookUp } from './code-lookup.js';
import { SymbolTargetSchema } from './code-target.js';
import { noCodeIntel } from './no-code-intel.js';
import { targetSummary } from './target-summary.js';

const FindReferencesInputSchema = SymbolTargetSchema.extend({
  cursor: z.string().optional().describe(cursorSchemaDescription),
});
export type FindReferencesInput = z.infer<typeof FindReferencesInputSchema>;

/** Up to this many uses are listed whole; more are summarised by file and paged. */
const LIST_ALL = 100;
const PAGE = 40;
const FILES_LISTED = 30;
const BUDGET_TOKENS = 3000;

export const findReferencesTool: ToolDefinition<FindReferencesInput> = {
  name: 'find_references',
  kind: 'read',
  description:
    'Every use of a name in the workspace (callers, imports, reads), each with its line. Give the name and, to mean one exact symbol, the file and line of its definition or of a use. A name used many times is summarised by file with counts; page on with the cursor.',
  input: FindReferencesInputSchema,
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  outputBudgetTokens: BUDGET_TOKENS,
  isVisible: (c) => c.hasCodeIntel === true,
  summarize: (i) => `${targetSummary(i)}${i.cursor ? ` (from ${i.cursor})` : ''}`,
  paths: (i) => [i.path ?? '.'],
  async execute(input, ctx) {
    const intel = ctx.workspace.codeIntel;
    if (!intel) return noCodeIntel();
    try {
      const looked = await lookUp(ctx, intel, input, (at) => intel.references(at, ctx.signal), locationKey);
      if (looked.type === 'result') return looked.result;
      const { items, hidden } = await visibleOnly(ctx.workspace, looked.items.sort(byPosition));
      const files = countByFile(items);
      const summary = `${plural(items.length, 'reference')} in ${plural(files.length, 'file')}`;
      const data = {
        engine: looked.answer.engine,
        ...(looked.answer.fallback ? { fallback: looked.answer.fallback } : {}),
        count: items.length,
        files: files.length,
      };
      const head = `${summary} to "${input.symbol}" ${engineNote(looked.answer)}`;
      const tail = `${looked.more > 0 ? `\n[${looked.more} more definitions named "${input.symbol}" were not followed: give path and line to pick one.]` : ''}${hiddenNote(hidden)}`;
      if (items.length === 0)
        return { ok: true, content: `No reference to "${input.symbol}" found. ${engineNote(looked.answer)}${tail}`, summary, data };
      const reader = new LineReader(ctx.workspace);
      if (items.length <= LIST_ALL && input.cursor === undefined) {
        const lines = await Promise.all(items.map((l) => locationLine(reader, l)));
        return { ok: true, content: `${head}:\n${lines.join('\n')}${tail}`, summary, data };
      }
      const { page, start, next } = pageOf(items, input.cursor, PAGE);
      const lines: string[] = [];
      for (const l of page) lines.push(await locationLine(reader, l));
      const more = next ? `\n[More: call find_references again with the same symbol, path and line and cursor "${next}".]` : '';
      const listing = start === 0 ? `${byFileSummary(files)}\n` : '';
      return {
        ok: true,
        content: `${head}.\n${listing}References ${start + 1}–${start + page.length}:\n${lines.join('\n')}${more}${tail}`,
        summary,
        data,
      };
    } catch (err) {
      return errorResult(err, input.path);
    }
  },
};

function countByFile(items: readonly CodeLocation[]): { path: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const l of items) counts.set(l.path, (counts.get(l.path) ?? 0) + 1);
  return [...counts].map(([path, count]) => ({ path, count })).sort((a, b) => b.count - a.count || (a.path < b.path ? -1 : 1));
}

function byFileSummary(files: readonly { path: string; count: number }[]): string {
  const shown = files.slice(0, FILES_LISTED).map((f) => `  ${f.path} (${f.count})`);
  const rest = files.slice(FILES_LISTED);
  const restCount = rest.reduce((n, f) => n + f.count, 0);
  const tail = rest.length > 0 ? `\n  … and ${plural(rest.length, 'more file')} (${plural(restCount, 'reference')})` : '';
  return `By file, most first:\n${shown.join('\n')}${tail}`;
}
