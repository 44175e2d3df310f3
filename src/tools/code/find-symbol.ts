// find_symbol: definitions whose name matches, across the workspace — the editor's workspace
// symbols (a language server's index) or Keel's syntax trees headless. A page at a time.
import { z } from 'zod';
import { CODE_SYMBOL_KINDS, type ToolDefinition } from '../../kernel/index.js';
import { errorResult } from '../tool-result.js';
import { cursorSchemaDescription, engineNote, hiddenNote, LineReader, locationLine, pageOf, plural, visibleOnly } from './code-results.js';
import { noCodeIntel } from './no-code-intel.js';

const FindSymbolInputSchema = z.object({
  query: z.string().min(1).max(200).describe('A name or the start of one (case-insensitive); exact matches come first.'),
  kind: z.enum(CODE_SYMBOL_KINDS).exclude(['other']).optional().describe('Only symbols of this kind.'),
  cursor: z.string().optional().describe(cursorSchemaDescription),
});
export type FindSymbolInput = z.infer<typeof FindSymbolInputSchema>;

const LIMIT = 200;
const PAGE = 40;
const BUDGET_TOKENS = 2500;

export const findSymbolTool: ToolDefinition<FindSymbolInput> = {
  name: 'find_symbol',
  kind: 'read',
  description:
    'Find where classes, functions, methods, types and variables are defined, by name (or the start of one), across the workspace. Cheaper than search_files for locating a definition.',
  input: FindSymbolInputSchema,
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  outputBudgetTokens: BUDGET_TOKENS,
  isVisible: (c) => c.hasCodeIntel === true,
  summarize: (i) => `${i.kind ? `${i.kind} ` : ''}${i.query}${i.cursor ? ` (from ${i.cursor})` : ''}`,
  paths: () => ['.'],
  async execute(input, ctx) {
    const intel = ctx.workspace.codeIntel;
    if (!intel) return noCodeIntel();
    try {
      const answer = await intel.findSymbols({ name: input.query, ...(input.kind ? { kind: input.kind } : {}), limit: LIMIT }, ctx.signal);
      const { items, hidden } = await visibleOnly(ctx.workspace, answer.items);
      const summary = `${plural(items.length, 'symbol')}${items.length === LIMIT ? '+' : ''}`;
      if (items.length === 0)
        return { ok: true, content: `No symbol matches "${input.query}". ${engineNote(answer)}${hiddenNote(hidden)}`, summary };
      const { page, start, next } = pageOf(items, input.cursor, PAGE);
      const reader = new LineReader(ctx.workspace);
      const lines: string[] = [];
      for (const s of page) lines.push(await locationLine(reader, s, `${s.kind} ${s.name}${s.container ? ` in ${s.container}` : ''} — `));
      const head = `${summary} match "${input.query}"${items.length > PAGE ? `, ${start + 1}–${start + page.length} shown` : ''} ${engineNote(answer)}:`;
      const more = next ? `\n[More: call find_symbol again with cursor "${next}".]` : '';
      return {
        ok: true,
        content: `${head}\n${lines.join('\n')}${more}${hiddenNote(hidden)}`,
        summary,
        data: { engine: answer.engine, ...(answer.fallback ? { fallback: answer.fallback } : {}), count: items.length },
      };
    } catch (err) {
      return errorResult(err);
    }
  },
};
