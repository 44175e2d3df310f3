// run_command: a command line through the workspace's shell (bash without startup files, or
// /bin/sh where there is no bash; the description says which), with stdout and stderr captured
// (interleaved, head and tail kept), a timeout and cancellation that end the process group.
import { z } from 'zod';
import type { CommandShell, ToolDefinition } from '../kernel/index.js';
import { COMMAND_ENV } from './policy/command-env.js';
import { describeExit, renderCaptured, renderNotices } from './process-output.js';
import { errorResult } from './tool-result.js';

const RunCommandInputSchema = z.object({
  command: z.string().min(1).describe('Command line, run with the shell named in the tool description.'),
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

/** What the model is told about the shell its command lines run in. */
function describeShell(shell: CommandShell | undefined): string {
  if (shell?.name === 'sh')
    return (
      `Runs with ${shell.path} -c (this machine has no bash): POSIX sh syntax only, ` +
      'no bash features such as [[ ]], arrays, brace expansion or $(< file).'
    );
  return "Runs with bash --noprofile --norc -c (not the user's login shell: no aliases, profile or rc files).";
}

/** run_command, described for the shell the workspace runs commands with. */
export function createRunCommandTool(shell?: CommandShell): ToolDefinition<RunCommandInput> {
  return { ...runCommandTool, description: `${DESCRIPTION} ${describeShell(shell)}` };
}

const DESCRIPTION =
  'Run a shell command in the workspace and return its exit code and output (long output keeps its start and end). ' +
  'Do not start servers or watchers that never exit. To run the tests, prefer run_tests.';

export const runCommandTool: ToolDefinition<RunCommandInput> = {
  name: 'run_command',
  kind: 'command',
  description: `${DESCRIPTION} ${describeShell(undefined)}`,
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
        ...(ctx.sandbox ? { sandbox: ctx.sandbox } : {}),
      });
      const exit = describeExit(r, timeoutMs);
      const content = `$ ${input.command}\n[${exit}]\n${renderCaptured(r.combined)}${renderNotices(r)}`;
      const data = {
        exitCode: r.exitCode,
        timedOut: r.timedOut,
        cancelled: r.cancelled,
        durationMs: r.durationMs,
        outputChars: r.combined.totalChars,
      };
      const facts = { command: { command: input.command, exitCode: r.exitCode } };
      if (r.timedOut) return { ok: false, code: 'timeout', retryable: true, content, summary: 'timed out', data, facts };
      if (r.cancelled) return { ok: false, code: 'cancelled', retryable: false, content, summary: 'cancelled', data, facts };
      if (r.exitCode !== 0) return { ok: false, code: 'execution_failed', retryable: true, content, summary: exit, data, facts };
      return { ok: true, content, summary: exit, data, facts };
    } catch (err) {
      return errorResult(err, input.cwd);
    }
  },
};
