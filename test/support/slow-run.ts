// `keel run --output jsonl --log LOG` against a model stand-in that streams slowly, started as a
// user would start it (the CLI's source through tsx), for the tests that act on a run while it
// goes on: a signal sent to it, a second process given its log.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { anthropicSse } from './anthropic-wire.js';
import { startModelServer, type ModelServer } from './model-server.js';

const ROOT = path.resolve(__dirname, '../..');
const TSX = pathToFileURL(require.resolve('tsx')).href;

/** A model that takes about twenty seconds to stream its one answer. */
export function slowModel(): Promise<ModelServer> {
  return startModelServer(() => ({ type: 'stream', body: anthropicSse({ text: ['x'.repeat(200)] }), chunks: 20, pauseMs: 1000 }));
}

export interface SlowRun {
  child: ChildProcess;
  /** Resolves once the answer is streaming (the run is under way and writing its log). */
  streaming: Promise<void>;
  /** The exit code and signal, and the JSON lines printed. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; lines: { type: string; result?: { status: string } }[] }>;
}

/** `keel ARGS…` with Keel's config and cache folders in `home`, and a key for the stand-in. */
export function keelIn(home: string, cwd: string, args: string[]): ChildProcess {
  return spawn(process.execPath, [`--import=${TSX}`, path.join(ROOT, 'src/cli/main.ts'), ...args], {
    cwd,
    env: { ...process.env, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache'), ANTHROPIC_API_KEY: 'k' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function startSlowRun(server: ModelServer, home: string, workspace: string, log: string): SlowRun {
  const args = ['run', '--workspace', workspace, '--base-url', server.anthropicBaseURL, '--output', 'jsonl', '--log', log, 'slow'];
  const child = keelIn(home, workspace, args);
  let out = '';
  let started: () => void = () => {};
  const streaming = new Promise<void>((resolve) => (started = resolve));
  child.stdout?.on('data', (d) => {
    out += d;
    if (out.includes('"text_delta"')) started();
  });
  const ended = new Promise<Awaited<SlowRun['ended']>>((resolve) =>
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        lines: out
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      }),
    ),
  );
  return { child, streaming, ended };
}
