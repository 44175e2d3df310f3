// document_outline: a file's classes, functions, methods and fields with their line ranges,
// nested as in the file — what to read before reading the whole file.
import { z } from 'zod';
import type { CodeSymbol, ToolDefinition } from '../../kernel/index.js';
import { isSecretFile } from '../policy/protected-paths.js';
import { errorResult, failure, fitLines } from '../tool-result.js';
import { engineNote, plural } from './code-results.js';
import { noCodeIntel } from './no-code-intel.js';

const DocumentOutlineInputSchema = z.object({
  path: z.string().min(1).describe('The file, relative to the workspace root.'),
});
export type DocumentOutlineInput = z.infer<typeof DocumentOutlineInputSchema>;

const BUDGET_TOKENS = 2000;
/** Larger files (generated, minified) are not outlined. */
const MAX_OUTLINE_BYTES = 4 * 1024 * 1024;

export const documentOutlineTool: ToolDefinition<DocumentOutlineInput> = {
  name: 'document_outline',
  kind: 'read',
  description:
    "A file's outline: its classes, functions, methods, fields and types with their line ranges, nested. Read it before reading a long file whole.",
  input: DocumentOutlineInputSchema,
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  outputBudgetTokens: BUDGET_TOKENS,
  isVisible: (c) => c.hasCodeIntel === true,
  summarize: (i) => i.path,
  paths: (i) => [i.path],
  async execute(input, ctx) {
    const intel = ctx.workspace.codeIntel;
    if (!intel) return noCodeIntel();
    try {
      const path = await ctx.workspace.resolve(input.path);
      if (isSecretFile(path)) return failure('permission_denied', `${path} may hold secrets; the symbol tools do not read it.`);
      const st = await ctx.workspace.stat(path);
      if (st?.type !== 'file') return failure(st ? 'invalid_input' : 'not_found', `${path} is ${st ? 'not a file' : 'not there'}.`);
      if (st.size > MAX_OUTLINE_BYTES)
        return failure(
          'invalid_input',
          `${path} is ${(st.size / 1024 / 1024).toFixed(1)} MB, too large to outline; use search_files or read_file with a line range.`,
          {
            retryable: false,
          },
        );
      const answer = await intel.outline(path, ctx.signal);
      if (answer.unsupported) {
        const why = answer.unsupported.reason
          ? `${path} was not parsed: it is ${answer.unsupported.reason}`
          : `No language server or grammar reads ${path}`;
        return failure('invalid_input', `${why}. Use read_file.`, { retryable: false });
      }
      const lines = answer.items.flatMap((s) => render(s, 0));
      const summary = plural(lines.length, 'symbol');
      if (lines.length === 0) return { ok: true, content: `${path} defines no symbols. ${engineNote(answer)}`, summary };
      return {
        ok: true,
        content: `${path}: ${summary} ${engineNote(answer)}\n${fitLines(lines.join('\n'), BUDGET_TOKENS * 4 - 200, 'symbols')}`,
        summary,
        data: { engine: answer.engine, ...(answer.fallback ? { fallback: answer.fallback } : {}) },
      };
    } catch (err) {
      return errorResult(err, input.path);
    }
  },
};

function render(s: CodeSymbol, depth: number): string[] {
  const range = s.endLine !== undefined && s.endLine > s.line ? `${s.line}–${s.endLine}` : `${s.line}`;
  // A member declared outside its type (a Go method) names the type.
  const of = depth === 0 && s.container ? ` (of ${s.container})` : '';
  const kind = s.kind === 'other' ? '' : `${s.kind} `;
  const own = `${'  '.repeat(depth)}${kind}${s.name}${of}  ${range}`;
  return [own, ...(s.children ?? []).flatMap((c) => render(c, depth + 1))];
}
