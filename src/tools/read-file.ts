// read_file: text with line numbers, paged within the output budget, encoding detected and
// reported. Records the file's content hash so later edits can detect staleness.
import { z } from 'zod';
import { contentHash, type ToolDefinition } from '../kernel/index.js';
import { decodeText, describeEncoding, isBinary } from './text/encoding.js';
import { LineIndex } from './text/line-index.js';
import { numberedWithin } from './text/numbered.js';
import { errorResult, failure } from './tool-result.js';

const ReadFileInputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace root.'),
  startLine: z.number().int().min(1).optional().describe('First line to show (1-based).'),
  endLine: z.number().int().min(1).optional().describe('Last line to show (inclusive).'),
});
export type ReadFileInput = z.infer<typeof ReadFileInputSchema>;

const BUDGET_TOKENS = 8000;
const MAX_BYTES = 64 * 1024 * 1024;

export const readFileTool: ToolDefinition<ReadFileInput> = {
  name: 'read_file',
  description:
    'Read a text file with line numbers (`12 | text`). Large files come in pages; the output says how to read on. ' +
    'Read a file before editing it.',
  input: ReadFileInputSchema,
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  outputBudgetTokens: BUDGET_TOKENS,
  summarize: (i) => (i.startLine || i.endLine ? `${i.path}:${i.startLine ?? 1}-${i.endLine ?? 'end'}` : i.path),
  paths: (i) => [i.path],
  async execute(input, ctx) {
    try {
      const rel = await ctx.workspace.resolve(input.path);
      const st = await ctx.workspace.stat(rel);
      if (!st) return failure('not_found', `${input.path} does not exist. Use list_files or search_files to find the right path.`);
      if (st.type === 'directory') return failure('invalid_input', `${rel} is a folder; use list_files to see what is in it.`);
      if (st.size > MAX_BYTES)
        return failure('invalid_input', `${rel} is ${st.size} bytes, too large to read; use search_files to find what you need in it.`, {
          retryable: false,
        });
      const bytes = await ctx.workspace.readFile(rel);
      const fileVersions = { [rel]: contentHash(bytes) };
      if (isBinary(bytes)) {
        return failure('invalid_input', `${rel} is a binary file (${bytes.length} bytes); read_file shows text files only.`, {
          retryable: false,
          fileVersions,
        });
      }
      return { ok: true, fileVersions, ...render(rel, bytes, input) };
    } catch (err) {
      return errorResult(err, input.path);
    }
  },
};

function render(rel: string, bytes: Uint8Array, input: ReadFileInput) {
  const decoded = decodeText(bytes);
  const idx = new LineIndex(decoded.text);
  const total = idx.length;
  const header = `${rel} — ${total} line${total === 1 ? '' : 's'}, ${describeEncoding(decoded)}`;
  if (total === 0) return { content: `${header}\n(empty file)`, summary: `${rel} (empty)` };
  const start = (input.startLine ?? 1) - 1;
  if (start >= total) return failure('invalid_input', `${rel} has ${total} lines; startLine ${start + 1} is past the end.`);
  const end = Math.min(input.endLine ?? total, total);
  if (end <= start) return failure('invalid_input', `endLine (${end}) must not be before startLine (${start + 1}).`);
  const page = numberedWithin((i) => idx.raw(i), start, end, BUDGET_TOKENS * 4 - 400);
  const shown = `lines ${start + 1}–${page.nextLine} of ${total}`;
  const more =
    page.nextLine < end
      ? `\n[Showing ${shown}. To read on, call read_file with startLine: ${page.nextLine + 1}.]`
      : page.nextLine < total
        ? `\n[Showing ${shown}.]`
        : '';
  return {
    content: `${header}\n${page.text}${more}`,
    summary: `${rel} (${shown})`,
    data: { path: rel, encoding: decoded.encoding, eol: decoded.eol === '\r\n' ? 'crlf' : 'lf', totalLines: total },
  };
}
