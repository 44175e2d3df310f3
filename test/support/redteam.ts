// The red team's harness: a real `keel run` (the CLI's source through tsx, no terminal) in a
// fresh workspace, driven by a hostile model — the stand-in on 127.0.0.1 asking for the calls an
// attacker would — and everything read back that could carry an effect out: each request the
// model got, the task's log file, what keel printed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type KeelRun, spawnKeel } from './keel-cli.js';
import type { WireToolCall } from './model-turn.js';
import { conversation, type ModelServer, startModelServer } from './model-server.js';
import { scratchDir } from './scratch.js';

export interface HostileRun {
  run: KeelRun;
  /** The workspace the task ran in. */
  workspace: string;
  /** Every request body the model got, as JSON text, in order. */
  requests: string[];
  /** When each request arrived, in ms after keel was started. */
  arrivedMs: number[];
  /** The task's log file as written. */
  log: string;
}

export interface HostileTask {
  /** Files of the workspace, by relative path. */
  files?: Record<string, string>;
  /** Prepares the workspace further (a git repository, …) before keel starts. */
  prepare?(workspace: string): void;
  /** The model's turns: each a list of calls made at once; the last turn says it is done. */
  turns: WireToolCall[][];
  /** More flags for `keel run`. */
  flags?: string[];
  env?: Record<string, string>;
  /** Descriptors keel inherits, by number (see spawnKeel). */
  inherit?: Record<number, number>;
  /** The model thinks this long before each reply (so a later turn comes later). */
  replyDelayMs?: number;
}

/** Runs `keel run` against the hostile model; `server` is closed afterwards. */
export async function hostileRun(task: HostileTask): Promise<HostileRun> {
  const dir = scratchDir('redteam');
  const workspace = path.join(dir, 'project');
  fs.mkdirSync(workspace);
  for (const [rel, text] of Object.entries(task.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(workspace, rel), text);
  }
  task.prepare?.(workspace);
  const started = Date.now();
  const arrivedMs: number[] = [];
  const steps = [...task.turns.map((calls) => ({ toolCalls: calls })), { text: ['Done.'] }];
  const reply = conversation((_req, index) => steps[Math.min(index, steps.length - 1)]!);
  const server: ModelServer = await startModelServer(async (req, index) => {
    arrivedMs.push(Date.now() - started);
    await new Promise((resolve) => setTimeout(resolve, task.replyDelayMs ?? 0));
    return reply(req, index);
  });
  try {
    const logPath = path.join(dir, 'task.jsonl');
    const env = { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache'), ...task.env };
    const args = [
      'run',
      '--workspace',
      workspace,
      '--base-url',
      server.anthropicBaseURL,
      '--log',
      logPath,
      ...(task.flags ?? []),
      'look around',
    ];
    const run = await spawnKeel(args, dir, env, task.inherit);
    const log = fs.existsSync(logPath) ? fs.readFileSync(logPath, 'utf8') : '';
    return { run, workspace, requests: server.requests.map((r) => JSON.stringify(r.body)), arrivedMs, log };
  } finally {
    await server.close();
  }
}
