// start_process, read_process_output, stop_process and list_processes: programs that keep
// running while the model works (a dev server, a watcher), bound to one task's table of
// background processes. start_process is a command like run_command: its `command` goes through
// the same classifier and policy, and it runs in the sandbox profile the approval chose. The
// other three only look at or end what this task itself started, so they run unasked.
import { z } from 'zod';
import type { BackgroundInfo, BackgroundOutput, BackgroundProcesses, ToolDefinition, ToolResult } from '../../kernel/index.js';
import { COMMAND_ENV } from '../policy/command-env.js';
import { renderCaptured } from '../process-output.js';
import { errorResult, failure } from '../tool-result.js';

/** How long start_process waits for the first port before answering with what it has. */
const SETTLE_MS = 3000;
const BUDGET_TOKENS = 3000;

const NameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, 'letters, digits, dot, dash and underscore, at most 40, starting with a letter or digit')
  .describe('A short name to read and stop it by, e.g. "web" or "tsc-watch".');

const StartInputSchema = z.object({
  name: NameSchema,
  command: z.string().min(1).describe('Command line, run with the same shell as run_command.'),
  cwd: z.string().optional().describe('Folder to run in, relative to the workspace root.'),
});
type StartInput = z.infer<typeof StartInputSchema>;

const ReadInputSchema = z.object({
  name: NameSchema,
  mode: z.enum(['new', 'tail']).default('new').describe('"new": output since your last read; "tail": its first and latest output.'),
});
type ReadInput = z.infer<typeof ReadInputSchema>;

const StopInputSchema = z.object({ name: NameSchema });
type StopInput = z.infer<typeof StopInputSchema>;

/** One line about a process: its name, state, ports and command. */
export function describeProcess(info: BackgroundInfo): string {
  const ports = info.ports.length ? `port ${info.ports.join(', ')}` : 'no port printed yet';
  const state =
    info.state === 'running' ? `running, ${ports}` : `${info.state}${info.exitCode !== null ? ` (exit code ${info.exitCode})` : ''}`;
  const sandboxed = info.sandbox === 'none' ? '' : ', in the sandbox (private loopback network)';
  return `${info.name}: ${state}${sandboxed} — ${info.command}`;
}

function render({ info, output }: BackgroundOutput, lead: string): string {
  const problem = info.problem ? `\n[${info.problem}]` : '';
  const portHint =
    info.state === 'running' && info.ports.length === 0
      ? '\n[It has printed no port yet: read its output again later, or check the address it uses.]'
      : '';
  return `${lead}\n${describeProcess(info)}${problem}${portHint}\n${renderCaptured(output)}`;
}

function data(info: BackgroundInfo) {
  return { name: info.name, state: info.state, ports: info.ports, exitCode: info.exitCode, sandbox: info.sandbox };
}

function startTool(table: BackgroundProcesses): ToolDefinition<StartInput> {
  return {
    name: 'start_process',
    kind: 'command',
    description:
      `Start a program that keeps running in the background (a dev server, a watcher, tsc --watch) and return its first output and the ports it printed. ` +
      `At most ${table.limit} run at once; each is stopped when the task ends. Read it with read_process_output, stop it with stop_process. ` +
      'Use run_command for commands that finish.',
    input: StartInputSchema,
    risk: 'execute',
    readOnly: false,
    concurrencySafe: false,
    outputBudgetTokens: BUDGET_TOKENS,
    isVisible: (c) => c.trusted,
    summarize: (i) => `${i.name}: ${i.cwd ? `(${i.cwd}) ` : ''}${i.command}`,
    paths: (i) => [i.cwd || '.'],
    async execute(input, ctx): Promise<ToolResult> {
      try {
        const started = await table.start(
          {
            name: input.name,
            command: input.command,
            ...(input.cwd ? { cwd: input.cwd } : {}),
            env: { ...COMMAND_ENV },
            ...(ctx.sandbox ? { sandbox: ctx.sandbox } : {}),
          },
          { settleMs: SETTLE_MS, signal: ctx.signal },
        );
        const { info } = started;
        const content = render(started, `$ ${input.command}`);
        if (info.state !== 'running')
          return failure('execution_failed', `${content}\n[It ended at once; fix the command and start it again.]`, { data: data(info) });
        return { ok: true, content, summary: info.ports.length ? `running on port ${info.ports.join(', ')}` : 'running', data: data(info) };
      } catch (err) {
        return backgroundFailure(err, input.cwd);
      }
    },
  };
}

function readTool(table: BackgroundProcesses): ToolDefinition<ReadInput> {
  return {
    name: 'read_process_output',
    kind: 'read',
    description:
      'Read what a background process printed: new output since your last read, or its first and latest output; and the ports it printed.',
    input: ReadInputSchema,
    risk: 'read',
    readOnly: true,
    concurrencySafe: false,
    outputBudgetTokens: BUDGET_TOKENS,
    summarize: (i) => `${i.name} (${i.mode})`,
    paths: () => [],
    async execute(input) {
      try {
        const read = table.read(input.name, input.mode);
        return {
          ok: true,
          content: render(read, input.mode === 'new' ? 'Output since the last read:' : 'First and latest output:'),
          summary: read.info.state,
          data: data(read.info),
        };
      } catch (err) {
        return backgroundFailure(err);
      }
    },
  };
}

function stopTool(table: BackgroundProcesses): ToolDefinition<StopInput> {
  return {
    name: 'stop_process',
    kind: 'other',
    description: 'Stop a background process this task started (its whole process group).',
    input: StopInputSchema,
    // It ends only what this task started, nothing of the user's: no approval needed.
    risk: 'read',
    readOnly: true,
    concurrencySafe: false,
    outputBudgetTokens: 500,
    summarize: (i) => i.name,
    paths: () => [],
    async execute(input) {
      try {
        const info = await table.stop(input.name);
        return { ok: true, content: `Stopped. ${describeProcess(info)}`, summary: info.state, data: data(info) };
      } catch (err) {
        return backgroundFailure(err);
      }
    },
  };
}

function listTool(table: BackgroundProcesses): ToolDefinition<Record<string, never>> {
  return {
    name: 'list_processes',
    kind: 'read',
    description: 'List the background processes this task started, with their state and ports.',
    input: z.object({}).strict(),
    risk: 'read',
    readOnly: true,
    concurrencySafe: true,
    outputBudgetTokens: 1000,
    summarize: () => 'background processes',
    paths: () => [],
    async execute() {
      const all = table.list();
      const running = all.filter((i) => i.state === 'running').length;
      const lines = all.map(describeProcess);
      const content = all.length
        ? `${running} of at most ${table.limit} running.\n${lines.join('\n')}`
        : 'No background process was started in this task.';
      return { ok: true, content, summary: `${running} running`, data: { processes: all.map(data) } };
    },
  };
}

function backgroundFailure(err: unknown, cwd?: string): ToolResult {
  if ((err as { name?: string } | null)?.name === 'BackgroundError') {
    const code = (err as { code: string }).code;
    return failure(code === 'not_found' ? 'not_found' : code === 'failed' ? 'execution_failed' : 'invalid_input', (err as Error).message);
  }
  return errorResult(err, cwd);
}

/** The four tools, bound to one task's table. */
export function createProcessTools(table: BackgroundProcesses): ToolDefinition[] {
  return [startTool(table), readTool(table), stopTool(table), listTool(table)];
}
