// read_file: text with line numbers, paged within the output budget, encoding detected and
// reported. Records the file's content hash so later edits can detect staleness, and reports the
// lines read to the task ledger. A whole-file read of a file unchanged since a whole read the
// model still has in its context answers "unchanged since step N" instead of the same text
// again (`force` gets the text anyway); a file that changed since the last read says so. A file
// too large to hold in memory is paged by line range from a stream (text/huge-file.ts).
import { z } from 'zod';
import { contentHash, type ToolContext, type ToolDefinition, type ToolResult } from '../kernel/index.js';
import { decodeText, describeEncoding, isBinary } from './text/encoding.js';
import { readHugePage } from './text/huge-file.js';
import { LineIndex } from './text/line-index.js';
import { numberedWithin } from './text/numbered.js';
import { errorResult, failure } from './tool-result.js';

const ReadFileInputSchema = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace root.'),
  startLine: z.number().int().min(1).optional().describe('First line to show (1-based).'),
  endLine: z.number().int().min(1).optional().describe('Last line to show (inclusive).'),
  force: z.boolean().optional().describe('Return the content even when the file is unchanged since your last read of it.'),
});
export type ReadFileInput = z.infer<typeof ReadFileInputSchema>;

const BUDGET_TOKENS = 8000;
/** Past this a file is not read whole but paged from a stream. */
const MAX_BYTES = 64 * 1024 * 1024;
const PAGE_CHARS = BUDGET_TOKENS * 4 - 400;

export const readFileTool: ToolDefinition<ReadFileInput> = {
  name: 'read_file',
  kind: 'read',
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
      if (st.size > MAX_BYTES) return await readHuge(rel, st.size, input, ctx);
      const bytes = await ctx.workspace.readFile(rel);
      const fileVersions = { [rel]: contentHash(bytes) };
      if (isBinary(bytes)) {
        return failure('invalid_input', `${rel} is a binary file (${bytes.length} bytes); read_file shows text files only.`, {
          retryable: false,
          fileVersions,
        });
      }
      const hash = fileVersions[rel]!;
      const prior = ctx.priorRead?.(rel);
      const wholeFile = input.startLine === undefined && input.endLine === undefined;
      if (prior?.inContext && prior.hash === hash && wholeFile && !input.force) {
        return {
          ok: true,
          fileVersions,
          content: `${rel} is unchanged since your read of it at step ${prior.step}; that result above shows it whole. Call read_file with force: true to get it again.`,
          summary: `${rel} unchanged since step ${prior.step}`,
          facts: { unchanged: { path: rel, hash } },
        };
      }
      const changed = prior && prior.hash !== hash ? ` (changed since your last read of it, at step ${prior.step})` : '';
      return { ok: true, fileVersions, ...render(rel, bytes, hash, input, changed) };
    } catch (err) {
      return errorResult(err, input.path);
    }
  },
};

function render(rel: string, bytes: Uint8Array, hash: string, input: ReadFileInput, changed: string) {
  const decoded = decodeText(bytes);
  const idx = new LineIndex(decoded.text);
  const total = idx.length;
  const header = `${rel} — ${total} line${total === 1 ? '' : 's'}, ${describeEncoding(decoded)}${changed}`;
  if (total === 0)
    return { content: `${header}\n(empty file)`, summary: `${rel} (empty)`, facts: { read: { path: rel, hash, from: 1, to: 0, total } } };
  const start = (input.startLine ?? 1) - 1;
  if (start >= total) return failure('invalid_input', `${rel} has ${total} lines; startLine ${start + 1} is past the end.`);
  const end = Math.min(input.endLine ?? total, total);
  if (end <= start) return failure('invalid_input', `endLine (${end}) must not be before startLine (${start + 1}).`);
  const page = numberedWithin((i) => idx.raw(i), start, end, PAGE_CHARS);
  const shown = `lines ${start + 1}–${page.nextLine} of ${total}`;
  return {
    content: `${header}\n${page.text}${readOn(shown, page.nextLine, end, total)}`,
    summary: `${rel} (${shown})`,
    data: { path: rel, encoding: decoded.encoding, eol: decoded.eol === '\r\n' ? 'crlf' : 'lf', totalLines: total },
    facts: { read: { path: rel, hash, from: start + 1, to: page.nextLine, total, ...(page.cut ? { cut: true } : {}) } },
  };
}

function readOn(shown: string, nextLine: number, end: number, total: number): string {
  if (nextLine < end) return `\n[Showing ${shown}. To read on, call read_file with startLine: ${nextLine + 1}.]`;
  return nextLine < total ? `\n[Showing ${shown}.]` : '';
}

/** A file too large to hold whole: the page asked for, read from a stream (never "unchanged since"). */
async function readHuge(rel: string, size: number, input: ReadFileInput, ctx: ToolContext): Promise<ToolResult> {
  if (!ctx.workspace.readChunks)
    return failure('invalid_input', `${rel} is ${size} bytes, too large to read here; use search_files to find what you need in it.`, {
      retryable: false,
    });
  const start = (input.startLine ?? 1) - 1;
  const end = input.endLine ?? Number.POSITIVE_INFINITY;
  if (end <= start) return failure('invalid_input', `endLine (${end}) must not be before startLine (${start + 1}).`);
  const page = await readHugePage(ctx.workspace.readChunks(rel, ctx.signal), size, start, end, PAGE_CHARS);
  if (page.type !== 'page')
    return failure(
      'invalid_input',
      `${rel} is ${page.type === 'binary' ? 'a binary file' : 'UTF-16 text'} of ${size} bytes, too large to read; use search_files.`,
      {
        retryable: false,
      },
    );
  const fileVersions = { [rel]: page.hash };
  if (start >= page.total)
    return failure('invalid_input', `${rel} has ${page.total} lines; startLine ${start + 1} is past the end.`, { fileVersions });
  const width = String(page.nextLine).length;
  const text = page.lines.map((l, i) => `${String(start + 1 + i).padStart(width)} | ${l}`).join('\n');
  const shown = `lines ${start + 1}–${page.nextLine} of ${page.total}`;
  const header = `${rel} — ${page.total} line${page.total === 1 ? '' : 's'}, ${size} bytes, read as UTF-8 (too large to read whole: use startLine and endLine)`;
  return {
    ok: true,
    fileVersions,
    content: `${header}\n${text}${readOn(shown, page.nextLine, Math.min(end, page.total), page.total)}`,
    summary: `${rel} (${shown})`,
    facts: {
      read: { path: rel, hash: page.hash, from: start + 1, to: page.nextLine, total: page.total, ...(page.cut ? { cut: true } : {}) },
    },
  };
}
