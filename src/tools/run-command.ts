// run_command: a command line through the user's shell, with stdout and stderr captured
// (interleaved, head and tail kept), a timeout and cancellation that end the process group.
import { z } from 'zod';
import type { ToolDefinition } from '../kernel/index.js';
import { COMMAND_ENV } from './policy/command-env.js';
import { describeExit, renderCaptured } from './process-output.js';
import { errorResult } from './tool-result.js';

export const RunCommandInputSchema = z.object({
  command: z.string().min(1).describe("Shell command line, run with the user's shell (sh -c)."),
  cwd: z.string().optional().describe('Folder to run in, relative to the workspace root.'),
  timeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(30 * 60_000)
    .optional()
    .describe('Default 120000 (2 minutes).'),
});
export type RunCommandInput = z.infer<typeof RunCommandInputSchema>;

const BUDGET_TOKENS = 4000;
const DEFAULT_TIMEOUT_MS = 120_000;

export const runCommandTool: ToolDefinition<RunCommandInput> = {
  name: 'run_command',
  description:
    'Run a shell command in the workspace and return its exit code and output (long output keeps its start and end). ' +
    'Do not start servers or watchers that never exit. To run the tests, prefer run_tests.',
  input: RunCommandInputSchema,
  risk: 'execute',
  readOnly: false,
  concurrencySafe: false,
  outputBudgetTokens: BUDGET_TOKENS,
  isVisible: (c) => c.trusted,
  summarize: (i) => (i.cwd ? `(${i.cwd}) ${i.command}` : i.command),
  paths: (i) => [i.cwd || '.'],
  async execute(input, ctx) {
    const timeoutMs = input.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      const r = await ctx.workspace.runProcess(input.command, {
        cwd: input.cwd,
        timeoutMs,
        signal: ctx.signal,
        onOutput: (chunk) => ctx.onProgress(chunk),
        maxCaptureChars: Math.floor((BUDGET_TOKENS * 4 - 400) / 2),
        env: { ...COMMAND_ENV },
      });
      const exit = describeExit(r, timeoutMs);
      const content = `$ ${input.command}\n[${exit}]\n${renderCaptured(r.combined)}`;
      const data = {
        exitCode: r.exitCode,
        timedOut: r.timedOut,
        cancelled: r.cancelled,
        durationMs: r.durationMs,
        outputChars: r.combined.totalChars,
      };
      if (r.timedOut) return { ok: false, code: 'timeout', retryable: true, content, summary: 'timed out', data };
      if (r.cancelled) return { ok: false, code: 'cancelled', retryable: false, content, summary: 'cancelled', data };
      if (r.exitCode !== 0) return { ok: false, code: 'execution_failed', retryable: true, content, summary: exit, data };
      return { ok: true, content, summary: exit, data };
    } catch (err) {
      return errorResult(err, input.cwd);
    }
  },
};
