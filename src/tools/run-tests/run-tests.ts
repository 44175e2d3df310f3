// run_tests: runs the project's tests (the given command, or the detected one) and answers
// with a structured report: counts, each failure's name, file:line and message. The tests run in
// the user's own environment: no variable a suite reads is added (NO_COLOR, CI, TERM… would change
// their results; colour codes are stripped from the output instead; git's and npm's settings for
// run_command's read-only lines, COMMAND_ENV, would change what a suite's own `git diff` says),
// in the sandbox profile the policy chose. A JUnit XML report the build tool wrote while running
// (Maven, Gradle) is read before its console output.
import { z } from 'zod';
import type { ProcessResult, ToolDefinition, Workspace } from '../../kernel/index.js';
import { describeExit, renderNotices } from '../process-output.js';
import { errorResult, failure } from '../tool-result.js';
import { detectTestCommand } from './detect-command.js';
import { excerpt, formatReport, summaryLine } from './format-report.js';
import { locateSyntaxErrors } from './locate-syntax-error.js';
import { junitReport } from './junit-report.js';
import { parseTestOutput } from './parse-output.js';
import { stripAnsi, type ParseContext, type TestReport } from './test-report.js';
import { toolchainLine } from './toolchain-line.js';

/** Failing test names a run's facts keep (an episode note lists them when the run is folded). */
const FAILING_NAMES = 10;

const RunTestsInputSchema = z.object({
  command: z
    .string()
    .min(1)
    .optional()
    .describe('Test command; detected from the project when absent (npm test, pytest, go test, cargo test, …).'),
});
export type RunTestsInput = z.infer<typeof RunTestsInputSchema>;

const TIMEOUT_MS = 10 * 60_000;
/** Enough to parse a large suite; still bounded for runaway output. */
const CAPTURE_CHARS = 1_000_000;
const OUTPUT_BUDGET_TOKENS = 2000;
/** The report's size: the kernel's estimate is 4 characters a token; a margin keeps it from being cut. */
const REPORT_CHARS = OUTPUT_BUDGET_TOKENS * 4 - 200;
const decoder = new TextDecoder();

export const runTestsTool: ToolDefinition<RunTestsInput> = {
  name: 'run_tests',
  kind: 'command',
  description:
    "Run the project's tests and get a structured result: counts and each failure with its test name, file:line and message " +
    '(the failing line, in library code when the error came from there); a test file that fails to load or compile is reported ' +
    "with its file:line:column and the compiler's message. " +
    'Without a command, the test command is detected from the project.',
  input: RunTestsInputSchema,
  risk: 'execute',
  readOnly: false,
  concurrencySafe: false,
  outputBudgetTokens: OUTPUT_BUDGET_TOKENS,
  isVisible: (c) => c.trusted,
  summarize: (i) => i.command ?? "the project's tests",
  paths: () => ['.'],
  async execute(input, ctx) {
    try {
      const detected = input.command ? undefined : await detectTestCommand(ctx.workspace);
      const command = input.command ?? detected?.command;
      if (!command)
        return failure(
          'invalid_input',
          'No test command could be detected (no package.json test script, pytest, go.mod or Cargo.toml). Pass the command to run.',
        );
      // Asked while the tests run: the probe starts a sandbox of its own.
      const toolchain = toolchainLine(command, detected, ctx);
      const started = Date.now();
      const r = await ctx.workspace.runProcess(command, {
        timeoutMs: TIMEOUT_MS,
        signal: ctx.signal,
        maxCaptureChars: CAPTURE_CHARS,
        onOutput: (chunk) => ctx.onProgress(chunk),
        ...(ctx.sandbox ? { sandbox: ctx.sandbox } : {}),
      });
      const output = r.combined.head + (r.combined.omittedChars > 0 ? '\n' : '') + r.combined.tail;
      // The JUnit XML a build tool wrote during the run, before its console; the console when it wrote none.
      const parsed = (await junitReport(ctx.workspace, started)) ?? parseTestOutput(output, await parseContext(ctx.workspace));
      const placed =
        parsed &&
        (await locateSyntaxErrors(parsed, {
          workspace: ctx.workspace,
          command,
          signal: ctx.signal,
          ...(ctx.sandbox ? { sandbox: ctx.sandbox } : {}),
        }));
      return report(command, r, output, placed, await toolchain);
    } catch (err) {
      return errorResult(err);
    }
  },
};

/** The workspace root, and go.mod's module path so Go packages map to folders. */
async function parseContext(ws: Workspace): Promise<ParseContext> {
  const goMod = await ws.readFile('go.mod').then(
    (b) => decoder.decode(b),
    () => '',
  );
  const goModule = /^module\s+("?)(\S+)\1\s*$/m.exec(goMod)?.[2];
  return goModule ? { root: ws.root, goModule } : { root: ws.root };
}

function report(command: string, r: ProcessResult, output: string, parsed: TestReport | undefined, toolchain: string | undefined) {
  const exit = describeExit(r, TIMEOUT_MS);
  const header = `${toolchain ? `${toolchain}\n` : ''}$ ${command}\n[${exit}]${renderNotices(r)}`;
  const data = {
    command,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    outputChars: r.combined.totalChars,
    report: parsed,
  };
  if (r.timedOut || r.cancelled) {
    const code = r.timedOut ? 'timeout' : 'cancelled';
    return { ok: false, code, retryable: r.timedOut, content: `${header}\n${excerpt(stripAnsi(output))}`, summary: exit, data } as const;
  }
  const failing = parsed?.failures.slice(0, FAILING_NAMES).map((f) => f.name);
  const facts = {
    test: {
      command,
      passed: parsed?.passed ?? 0,
      failed: parsed?.failed ?? 0,
      ok: r.exitCode === 0,
      ...(failing?.length ? { failing } : {}),
    },
  };
  if (!parsed) {
    const ok = r.exitCode === 0;
    const content = `${header}\nThe output was not recognised as a known test runner's; here is its end:\n${excerpt(stripAnsi(output), 5000)}`;
    return {
      ok,
      content,
      summary: ok ? 'tests passed (exit code 0)' : `exit code ${r.exitCode}`,
      data,
      facts,
      ...(ok ? {} : { code: 'execution_failed' as const, retryable: true }),
    };
  }
  // A crash the parser did not recognise must not read as a clean run.
  const unexplained = r.exitCode !== 0 && parsed.failed === 0 && parsed.failures.length === 0;
  const note = unexplained ? `\nThe command failed but no failure was recognised in its output; see its end below.` : '';
  return {
    ok: true,
    content: formatReport(header + note, parsed, stripAnsi(output), REPORT_CHARS),
    summary: summaryLine(parsed),
    data,
    facts,
  };
}
