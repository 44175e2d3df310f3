// `keel --help` (and `keel run|resume|continue|restore|memory|replay|worktree --help`) without loading the
// rest of Keel: esbuild.mjs bundles this file alone into dist/cli-help.js, which bin/keel.js asks
// first, so the help prints in milliseconds where the whole CLI bundle (every provider SDK, MCP,
// the fleet's Redis client) takes seconds to load. main.ts asks the same question, for a run
// through the sources (tsx) and for anything bin/keel.js is not the way in.
import { USAGE } from './usage.js';

/** The commands whose --help is USAGE (fleet and serve have their own, in the full bundle). */
const OWN_USAGE = ['run', 'resume', 'continue', 'restore', 'memory', 'replay', 'worktree'];

const isHelp = (a: string) => a === '--help' || a === '-h';

/** `keel --help`, `keel run --help`…: the usage on stdout, and success. */
export function asksForHelp(argv: readonly string[]): boolean {
  return (argv.length === 1 && isHelp(argv[0]!)) || (OWN_USAGE.includes(argv[0]!) && argv.slice(1).some(isHelp));
}

/** Prints the usage when `argv` asks for it; whether it did (bin/keel.js then loads nothing else). */
export function printHelpIfAsked(argv: readonly string[], stdout: NodeJS.WritableStream = process.stdout): boolean {
  if (!asksForHelp(argv)) return false;
  stdout.write(`${USAGE}\n`);
  return true;
}
