// The `keel` command's entry point.
import { parseRunArgs, USAGE, UsageError } from './args.js';
import { EXIT, runTask } from './run.js';

async function main(argv: string[]): Promise<number> {
  try {
    const options = parseRunArgs(argv, process.cwd());
    return await runTask(options, {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      onInterrupt(handler) {
        process.on('SIGINT', handler);
        return () => process.off('SIGINT', handler);
      },
    });
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`keel: ${err.message}\n\n${USAGE}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`keel: ${(err as Error).message}\n`);
    return EXIT.failed;
  }
}

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
