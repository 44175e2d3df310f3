// The `keel` command's entry point.
import { secretDetector } from '../compose/index.js';
import { redactSecrets } from '../kernel/index.js';
import { parseRunArgs, USAGE, UsageError } from './args.js';
import { runFleetCommand } from './fleet-command.js';
import { FLEET_USAGE } from './fleet-args.js';
import { runMemoryCommand } from './memory-command.js';
import { runServeCommand, SERVE_USAGE } from './serve-command.js';
import { runReplayCommand } from './replay-command.js';
import { EXIT, runTask } from './run.js';

async function main(argv: string[]): Promise<number> {
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
    const options = parseRunArgs(argv, process.cwd());
    return await runTask(options, {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      onInterrupt: interruptOnce,
      env: process.env,
    });
  } catch (err) {
    // A message may quote what the user typed (an unknown option that was a pasted key): redacted.
    const message = redactSecrets((err as Error).message, [], secretDetector());
    if (err instanceof UsageError) {
      process.stderr.write(`keel: ${message}\n\n${extra?.usage ?? USAGE}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`keel: ${message}\n`);
    return EXIT.failed;
  }
}

/** Commands with their own usage text, each in its own file. */
const EXTRA_COMMANDS: Record<string, { usage: string; run(args: string[]): Promise<number> }> = {
  fleet: { usage: FLEET_USAGE, run: (args) => runFleetCommand(args, processIo()) },
  serve: { usage: SERVE_USAGE, run: (args) => runServeCommand(args, processIo()) },
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

/** `keel --help`, `keel run --help`: the usage on stdout, and success. */
function asksForHelp(argv: string[]): boolean {
  const isHelp = (a: string) => a === '--help' || a === '-h';
  return (argv.length === 1 && isHelp(argv[0]!)) || (['run', 'memory', 'replay'].includes(argv[0]!) && argv.slice(1).some(isHelp));
}

// The first Ctrl+C cancels the run so its log ends cleanly; a later one (while
// the run winds down, or after it) exits at once with the interrupted code
// instead of Node's default signal death, which reports no exit code at all.
function interruptOnce(handler: () => void): () => void {
  let active = true;
  let interrupted = false;
  process.on('SIGINT', () => {
    if (active && !interrupted) {
      interrupted = true;
      handler();
    } else {
      process.exit(EXIT.interrupted);
    }
  });
  return () => {
    active = false;
  };
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
