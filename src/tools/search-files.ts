// search_files: a regular-expression search through the port (ripgrep where there is one),
// grouped by file, with line numbers, capped with a note.
import { z } from 'zod';
import { SEARCH_MAX_FILE_BYTES, type SearchMatch, type SkippedFile, type ToolDefinition } from '../kernel/index.js';
import { searchWorkspace } from './search/search-workspace.js';
import { errorResult, failure, fitLines } from './tool-result.js';

const SearchFilesInputSchema = z.object({
  query: z.string().min(1).describe('Regular expression (ripgrep syntax) to search for.'),
  path: z.string().optional().describe('Folder to search under, relative to the workspace root.'),
  glob: z
    .string()
    .optional()
    .describe(
      'Only files matching this glob, e.g. "*.ts", "*.{ts,js}" or "src/**/*.py" (without a "/" it matches file names at any depth).',
    ),
});
export type SearchFilesInput = z.infer<typeof SearchFilesInputSchema>;

const MAX_MATCHES = 200;
const MAX_LINE_CHARS = 240;
const BUDGET_TOKENS = 3000;

export const searchFilesTool: ToolDefinition<SearchFilesInput> = {
  name: 'search_files',
  kind: 'read',
  description: 'Search file contents with a regular expression; returns matching lines with line numbers, grouped by file.',
  input: SearchFilesInputSchema,
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  outputBudgetTokens: BUDGET_TOKENS,
  summarize: (i) => `/${i.query}/${i.path ? ` in ${i.path}` : ''}${i.glob ? ` (${i.glob})` : ''}`,
  paths: (i) => [i.path || '.'],
  async execute(input, ctx) {
    try {
      const path = input.path ? await ctx.workspace.resolve(input.path) : undefined;
      const result = await searchWorkspace(
        ctx.workspace,
        { pattern: input.query, path, glob: input.glob, maxMatches: MAX_MATCHES },
        ctx.signal,
      );
      const skipped = skippedNote(result.skipped ?? []);
      if (result.matches.length === 0)
        return {
          ok: true,
          content: `No matches for /${input.query}/${skipped ? ' in the files searched' : ''}.${skipped}`,
          summary: skipped ? `0 matches, ${result.skipped!.length} file${result.skipped!.length === 1 ? '' : 's'} not shown` : '0 matches',
          ...(result.skipped ? { data: { engine: result.engine, truncated: false, skipped: result.skipped } } : {}),
        };
      const files = new Set(result.matches.map((m) => m.path)).size;
      const count = `${result.matches.length}${result.truncated ? '+' : ''} matches in ${files} file${files === 1 ? '' : 's'}`;
      const note = result.truncated
        ? `\n[More than ${MAX_MATCHES} matches: only the first ${MAX_MATCHES} are shown. Narrow the query, path or glob.]`
        : '';
      const body = fitLines(group(result.matches), BUDGET_TOKENS * 4 - 300, 'matching lines');
      const paths = [...new Set(result.matches.map((m) => m.path))];
      return {
        ok: true,
        content: `${count}:\n${body}${note}${skipped}`,
        summary: count,
        data: { engine: result.engine, truncated: result.truncated, ...(result.skipped ? { skipped: result.skipped } : {}) },
        facts: { search: { query: input.query, paths: paths.slice(0, 10), matches: result.matches.length } },
      };
    } catch (err) {
      if (/regex|parse/i.test(String((err as Error)?.message)))
        return failure('invalid_input', `The query is not a valid regular expression: ${(err as Error).message}`);
      return errorResult(err, input.path);
    }
  },
};

/** Files listed: enough to act on, never a flood. */
const MAX_SKIPPED_LISTED = 10;

/** Names the files whose matches are not shown and why, so "no matches" is never said of text that is there. */
function skippedNote(skipped: readonly SkippedFile[]): string {
  if (skipped.length === 0) return '';
  const why = (f: SkippedFile) =>
    f.reason === 'binary'
      ? `${f.path} (binary: it matches, but its lines are not text)`
      : `${f.path} (${megabytes(f.bytes ?? 0)} MB: not searched; without ripgrep (rg) files over ${megabytes(SEARCH_MAX_FILE_BYTES)} MB are not read)`;
  const listed = skipped.slice(0, MAX_SKIPPED_LISTED).map(why);
  const more = skipped.length > MAX_SKIPPED_LISTED ? `; and ${skipped.length - MAX_SKIPPED_LISTED} more` : '';
  return `\n[Not shown: ${listed.join('; ')}${more}.]`;
}

function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0);
}

function group(matches: readonly SearchMatch[]): string {
  const out: string[] = [];
  let current: string | undefined;
  for (const m of matches) {
    if (m.path !== current) out.push(`${(current = m.path)}`);
    const text = m.text.replace(/\r?\n$/, '');
    out.push(`  ${m.line}: ${text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text}`);
  }
  return out.join('\n');
}
