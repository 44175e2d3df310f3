// The fault suite's harness: a small scripted task (read a file, edit it, write a new one, run a
// command, answer) run by the real keel CLI — bundled once with esbuild so each of the many runs
// starts in a fraction of a second — with a preloaded hook (test/fixtures/faults/kill-hook.cjs)
// that SIGKILLs the process just before or just after its Nth durable write: each append to the
// task log, each temp file of an atomic write, each rename that commits one.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type { RecordedRequest, Responder } from './model-server.js';
import { anthropicSse } from './anthropic-wire.js';
import type { WireTurn } from './model-turn.js';
import { scratchDir } from './scratch.js';

const ROOT = path.resolve(__dirname, '../..');
export const KILL_HOOK = path.join(ROOT, 'test/fixtures/faults/kill-hook.cjs');

/** The task's workspace before it ran, and each file's complete new version. */
export const ORIGINAL: Record<string, string> = {
  'notes/a.txt': `alpha\n${'a line of the first note\n'.repeat(40)}`,
  'notes/b.txt': 'beta\n',
};
export const CHANGED: Record<string, string> = {
  'notes/a.txt': ORIGINAL['notes/a.txt']!.replace('alpha', 'ALPHA'),
  'notes/new.txt': 'a new note\n'.repeat(300),
  'made.txt': 'ok',
};

/** keel's CLI as one CommonJS file: what `npm run build` makes, in a scratch folder. */
export async function bundleCli(): Promise<string> {
  const outfile = path.join(scratchDir('fault-cli'), 'cli.js');
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'src/cli/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  return outfile;
}

export function writeWorkspace(dir: string, files: Record<string, string> = ORIGINAL): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runNode(args: string[], env: Record<string, string>, cwd = ROOT): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ANTHROPIC_API_KEY: 'test-key', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The task's model: each reply chosen from the results the request shows, so a resumed run goes on where it stopped. */
export function taskModel(): Responder {
  return (req) => {
    if (req.api !== 'anthropic') return { type: 'json', status: 404, body: {} };
    return { type: 'stream', body: anthropicSse(nextTurn(req)) };
  };
}

function nextTurn(req: RecordedRequest): WireTurn {
  const last = lastCall(req);
  const call = (name: string, input: unknown, text: string): WireTurn => ({ text: [text], toolCalls: [{ name, input }] });
  if (!last) return call('read_file', { path: 'notes/a.txt' }, 'Reading the note first.');
  if (last === 'read_file')
    return call('edit_file', { path: 'notes/a.txt', edits: [{ search: 'alpha', replace: 'ALPHA' }] }, 'Capitalising it.');
  if (last === 'edit_file') return call('write_file', { path: 'notes/new.txt', content: CHANGED['notes/new.txt'] }, 'Writing a new note.');
  if (last === 'write_file') return call('run_command', { command: 'printf ok > made.txt' }, 'Marking it done.');
  return { text: ['Done: the note is capitalised, a new note written and the mark made.'] };
}

/** The newest tool call the request shows. */
function lastCall(req: RecordedRequest): string | undefined {
  let name: string | undefined;
  for (const m of (req.body?.messages ?? []) as { content: unknown }[])
    if (Array.isArray(m.content)) for (const b of m.content as { type: string; name?: string }[]) if (b.type === 'tool_use') name = b.name;
  return name;
}

/** Processes still running in the folder (a command Keel started that outlived it). */
export function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) out.push(Number(pid));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return out;
}

/** Every file under `dir`, relative, with its text. */
export function filesIn(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.set(r, fs.readFileSync(path.join(dir, r), 'utf8'));
    }
  };
  walk('');
  return out;
}
