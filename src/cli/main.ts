// The `keel` command's entry point.
import { secretDetector } from '../compose/index.js';
import { redactSecrets } from '../kernel/index.js';
import { wipeCredentialsFromBlock } from '../node/environment-block.js';
import { InputError, parseRunArgs, UsageError } from './args.js';
import { runFleetCommand } from './fleet-command.js';
import { FLEET_USAGE } from './fleet-args.js';
import { runMemoryCommand } from './memory-command.js';
import { runServeCommand, SERVE_USAGE } from './serve-command.js';
import { runReplayCommand } from './replay-command.js';
import { REVIEW_USAGE, runReviewCommand } from './review-command.js';
import { USAGE } from './usage.js';
import { asksForHelp } from './help.js';
import { runRestoreCommand } from './restore-command.js';
import { runResumeCommand } from './resume-command.js';
import { runContinueCommand } from './continue-command.js';
import { EXIT, runTask } from './run.js';
import { runWorktreeCommand } from './worktree-command.js';
import { runInWorktree } from './worktree-run.js';

async function main(argv: string[]): Promise<number> {
  wipeOwnCredentials();
  if (asksForHelp(argv)) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.completed;
  }
  const extra = EXTRA_COMMANDS[argv[0] ?? ''];
  if (extra && argv.slice(1).some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(`${extra.usage}\n`);
    return EXIT.completed;
  }
  try {
    if (argv[0] === 'memory') {
      await runMemoryCommand(argv.slice(1), { stdout: process.stdout, cwd: process.cwd(), env: process.env });
      return EXIT.completed;
    }
    if (extra) return await extra.run(argv.slice(1));
    if (argv[0] === 'replay')
      return await runReplayCommand(argv.slice(1), { stdout: process.stdout, cwd: process.cwd(), env: process.env });
    if (argv[0] === 'restore')
      return await runRestoreCommand(argv.slice(1), { stdin: process.stdin, stdout: process.stdout, cwd: process.cwd(), env: process.env });
    if (argv[0] === 'resume' || argv[0] === 'continue')
      return await (argv[0] === 'resume' ? runResumeCommand : runContinueCommand)(argv.slice(1), {
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
        onInterrupt: interruptOnce,
        env: process.env,
        cwd: process.cwd(),
      });
    if (argv[0] === 'worktree')
      return await runWorktreeCommand(argv.slice(1), {
        stdin: process.stdin,
        stdout: process.stdout,
        cwd: process.cwd(),
        env: process.env,
      });
    const options = parseRunArgs(argv, process.cwd());
    const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, onInterrupt: interruptOnce, env: process.env };
    return await (options.worktree ? runInWorktree(options, io) : runTask(options, io));
  } catch (err) {
    // A message may quote what the user typed (an unknown option that was a pasted key): redacted.
    const message = redactSecrets((err as Error).message, [], secretDetector());
    if (err instanceof UsageError) {
      process.stderr.write(`${usageLine(message, argv)}\n`);
      return EXIT.usage;
    }
    if (err instanceof InputError) {
      process.stderr.write(`keel: ${message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`keel: ${message}\n`);
    return EXIT.failed;
  }
}

/**
 * Takes the provider keys and every variable that holds a credential out of this process's
 * environment block before any command can run (environment-block.ts); process.env keeps them.
 */
function wipeOwnCredentials(): void {
  const detector = secretDetector();
  const outcome = wipeCredentialsFromBlock((name, value) => detector.inVariable(name, value) !== undefined);
  if (outcome.problem && process.platform === 'linux')
    process.stderr.write(`keel: could not wipe the credentials from this process's environment block (${outcome.problem})\n`);
}

/** Commands with their own usage text, each in its own file. */
const EXTRA_COMMANDS: Record<string, { usage: string; run(args: string[]): Promise<number> }> = {
  fleet: { usage: FLEET_USAGE, run: (args) => runFleetCommand(args, processIo()) },
  serve: { usage: SERVE_USAGE, run: (args) => runServeCommand(args, processIo()) },
  review: { usage: REVIEW_USAGE, run: (args) => runReviewCommand(args, processIo()) },
};

function processIo() {
  return { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env, onInterrupt: onEachStop };
}

/** Ctrl+C and SIGTERM call the handler on each press (a worker drains first, then stops at once). */
function onEachStop(handler: () => void): () => void {
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

/** A usage error is one line: its cause and where the help is (the help itself is `--help`'s). */
function usageLine(cause: string, argv: readonly string[]): string {
  const own = ['run', 'resume', 'continue', 'restore', 'memory', 'replay', 'fleet', 'serve', 'worktree', 'review'].includes(argv[0] ?? '');
  const command = own ? `keel ${argv[0]} --help` : 'keel run --help';
  return `keel: ${cause.replace(/\s+$/, '')} (see \`${command}\`)`;
}

/**
 * What stops a run: Ctrl+C, and what CI cancellation, `timeout`, Docker and Kubernetes send
 * (SIGTERM) or a closed terminal (SIGHUP). Node's default for these is death with no exit code,
 * no result record and no `run_cancelled` in the log.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

// The first stop signal cancels the run so its log ends cleanly; a later one (while the run
// winds down, or after it) exits at once with the interrupted code.
function interruptOnce(handler: () => void): () => void {
  let active = true;
  let interrupted = false;
  const onSignal = () => {
    if (active && !interrupted) {
      interrupted = true;
      handler();
    } else {
      process.exit(EXIT.interrupted);
    }
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return () => {
    active = false;
  };
}

// The last line of defence: a failure nobody caught still reaches the user as one line naming
// what failed, never a stack trace.
for (const event of ['uncaughtException', 'unhandledRejection'] as const)
  process.on(event, (err: unknown) => {
    process.stderr.write(`keel: ${(err as Error)?.message ?? String(err)}\n`);
    process.exit(EXIT.failed);
  });

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
