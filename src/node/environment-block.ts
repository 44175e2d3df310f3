// Keel's own environment block, wiped of credentials. On Linux /proc/PID/environ shows the block
// of memory a process was started with, not process.env: unsetting a variable leaves its bytes
// there, and any process of the same user — a command Keel runs, approved and unsandboxed, reading
// /proc/$PPID/environ — reads them. So at start Keel overwrites, through /proc/self/mem, the entries
// of the provider keys and of every variable that holds a credential with zeros, and sets each
// again in process.env, whose copies live on the heap: Keel goes on reading its key as before, and
// children get only what their environment is built with. The helpers Keel starts without a
// command's environment (ripgrep, git, the sandbox's probe) get `withoutCredentials`.
import * as fs from 'node:fs';
import { PROVIDER_KEY_VARIABLES } from './command-shell.js';

/** The names wiped at start (withheld from every helper process too). */
const wiped = new Set<string>();

export interface WipeOutcome {
  /** The variables whose bytes are gone from the block. */
  wiped: string[];
  /** Why the block could not be wiped (not Linux, /proc not mounted…); absent when it was. */
  problem?: string;
}

/** Wipes the entries `withhold` picks (by name and value) from the block; process.env keeps them. */
export function wipeCredentialsFromBlock(withhold: (name: string, value: string) => boolean): WipeOutcome {
  const chosen = Object.entries(process.env).flatMap(([name, value]) =>
    value !== undefined && (PROVIDER_KEY_VARIABLES.includes(name) || withhold(name, value)) ? [[name, value] as const] : [],
  );
  if (chosen.length === 0) return { wiped: [] };
  if (process.platform !== 'linux') return { wiped: [], problem: 'only Linux shows a process its own environment block' };
  try {
    overwrite(new Set(chosen.map(([name]) => name)));
  } catch (err) {
    return { wiped: [], problem: (err as Error).message };
  }
  for (const [name, value] of chosen) {
    // The entry in the block is now empty; setting it again puts a copy on the heap.
    process.env[name] = value;
    wiped.add(name);
  }
  return { wiped: chosen.map(([name]) => name) };
}

/** An environment for a helper process: without the provider keys and the credentials wiped at start. */
export function withoutCredentials(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !wiped.has(name) && !PROVIDER_KEY_VARIABLES.includes(name)));
}

/** Zeros every `NAME=value` entry of the block whose name is in `names`. */
function overwrite(names: ReadonlySet<string>): void {
  const { start, end } = blockBounds();
  const fd = fs.openSync('/proc/self/mem', 'r+');
  try {
    const block = Buffer.alloc(end - start);
    fs.readSync(fd, block, 0, block.length, start);
    let from = 0;
    while (from < block.length) {
      let to = block.indexOf(0, from);
      if (to < 0) to = block.length;
      const equals = block.indexOf(0x3d, from);
      if (equals > from && equals < to && names.has(block.toString('utf8', from, equals))) {
        const zeros = Buffer.alloc(to - from);
        if (fs.writeSync(fd, zeros, 0, zeros.length, start + from) !== zeros.length) throw new Error('a short write to /proc/self/mem');
      }
      from = to + 1;
    }
    block.fill(0);
  } finally {
    fs.closeSync(fd);
  }
}

/** Where the block lies: fields 50 and 51 of /proc/self/stat (after the parenthesised name). */
function blockBounds(): { start: number; end: number } {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const start = Number(fields[47]);
  const end = Number(fields[48]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start)
    throw new Error('/proc/self/stat names no environment block');
  return { start, end };
}
