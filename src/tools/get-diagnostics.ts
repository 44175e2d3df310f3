// get_diagnostics: errors and warnings from the editor's language services. Hidden where the
// host has none (the CLI); says so if called anyway.
import { z } from 'zod';
import type { Diagnostic, ToolDefinition } from '../kernel/index.js';
import { errorResult, failure, fitLines } from './tool-result.js';

const GetDiagnosticsInputSchema = z.object({
  path: z.string().optional().describe('A file or folder; the whole workspace when absent.'),
});
export type GetDiagnosticsInput = z.infer<typeof GetDiagnosticsInputSchema>;

const BUDGET_TOKENS = 2000;
const ORDER: Diagnostic['severity'][] = ['error', 'warning', 'info', 'hint'];

export const getDiagnosticsTool: ToolDefinition<GetDiagnosticsInput> = {
  name: 'get_diagnostics',
  kind: 'read',
  description: 'Errors and warnings reported by the editor (type checker, linter) for a file or the workspace.',
  input: GetDiagnosticsInputSchema,
  risk: 'read',
  readOnly: true,
  concurrencySafe: true,
  outputBudgetTokens: BUDGET_TOKENS,
  isVisible: (c) => c.hasDiagnostics,
  summarize: (i) => i.path || 'workspace',
  paths: (i) => [i.path || '.'],
  async execute(input, ctx) {
    const ws = ctx.workspace;
    if (!ws.diagnostics)
      return failure(
        'execution_failed',
        'Diagnostics are not available here (no editor language services). Run the type checker or linter with run_command instead.',
        { retryable: false },
      );
    try {
      const path = input.path ? await ws.resolve(input.path) : undefined;
      const all = (await ws.diagnostics(path)).filter((d) => d.severity === 'error' || d.severity === 'warning');
      all.sort((a, b) => ORDER.indexOf(a.severity) - ORDER.indexOf(b.severity) || a.path.localeCompare(b.path) || a.line - b.line);
      const errors = all.filter((d) => d.severity === 'error').length;
      const summary = `${errors} error${errors === 1 ? '' : 's'}, ${all.length - errors} warning${all.length - errors === 1 ? '' : 's'}`;
      if (all.length === 0) return { ok: true, content: `No errors or warnings${path ? ` in ${path}` : ''}.`, summary };
      const lines = all.map(
        (d) => `${d.path}:${d.line}:${d.column} ${d.severity}${d.source ? ` [${d.source}]` : ''}: ${d.message.split('\n')[0]}`,
      );
      return {
        ok: true,
        content: `${summary}:\n${fitLines(lines.join('\n'), BUDGET_TOKENS * 4 - 200, 'diagnostics')}`,
        summary,
        data: { diagnostics: all.slice(0, 500) },
      };
    } catch (err) {
      return errorResult(err, input.path);
    }
  },
};
