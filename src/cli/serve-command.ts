// `keel serve --a2a`: Keel as an A2A agent on this machine. Each task a client sends runs as a
// fleet job (src/cli/fleet-job.ts) on a fresh copy of the served folder: the same headless policy
// (the approvals given here, fixed; nobody is asked), the same caps, the worker's provider. Its
// progress streams as status messages; its result record and patch come back as artifacts. Only
// requests addressed to this server, with its bearer token, are served (src/a2a/caller-guard.ts):
// the token comes from KEEL_A2A_TOKEN or is made here and printed once.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { RunResult } from '../compose/index.js';
import type { ConversationState, RuntimeEvent } from '../kernel/index.js';
import { visibleText } from '../kernel/index.js';
import { startA2aServer, type ServedOutcome } from '../a2a/server.js';
import { localFleetBudget, localGate } from '../fleet/index.js';
import { UsageError } from './args.js';
import { FLEET_OPTIONS, jobFromFlags, workerFlags } from './fleet-args.js';
import { NO_SANDBOX_JOBS, runFleetJob, type JobEnvironment } from './fleet-job.js';
import { sandboxNotice, tellWithheld } from './task-run.js';

export const SERVE_USAGE = `Usage:
  keel serve --a2a [--host 127.0.0.1] [--port N] [--workspace DIR] [--name NAME]
                   [--approve …] [--allow-command P]... [--deny-command P]... [--max-turns N]
                   [--max-cost USD] [--max-tokens N] [--fleet-max-cost USD]
                   [--provider …] [--base-url URL] [--model NAME] [--model-concurrency N] [--dir DIR]
                   [--pass-env NAME]... [--sandbox unasked|everything|off]

Serves Keel as an Agent2Agent (A2A) agent: the agent card at /.well-known/agent-card.json,
JSON-RPC at / and HTTP+JSON at /rest, streaming. Each task runs like a fleet job on a fresh copy of
--workspace (default: the current folder, never written) under the approvals given here — the
headless policy: what is not pre-approved is refused — and the caps given here (--max-cost per
task, --fleet-max-cost across all tasks). Its steps stream as status messages; its answer ends the
task and its result (schemas/run-result.schema.json) and patch come back as artifacts.
  --port N                 default: a free port (the URL is printed).
  --host ADDR              default 127.0.0.1: the address to listen on, and the one name besides
                           127.0.0.1, localhost and [::1] a request's Host may give (a request
                           addressed to another name, or sent by a web page of another origin, is
                           refused: no DNS rebinding). Give the name or address clients use.
Clients speak A2A 1.0 (the A2A-Version: 1.0 header); another version gets one error response.
Every request but the agent card's sends "Authorization: Bearer TOKEN": the token is
$KEEL_A2A_TOKEN (several, comma-separated: one per caller; at least 16 characters each), or one
made at start and printed once. A caller sees only its own tasks (ListTasks, GetTask, artifacts).
In a2a.json: "headers": {"Authorization": "Bearer TOKEN"}.
  --pass-env NAME          tasks' commands get this variable though it looks like a credential.
  --sandbox MODE           as keel run (default unasked): commands that run unasked run in the OS
                           sandbox on the task's copy; a client cannot choose the mode.
Ctrl+C stops the server (running tasks are cancelled).`;

export interface ServeIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
  onInterrupt(handler: () => void): () => void;
}

export async function runServeCommand(argv: string[], io: ServeIo): Promise<number> {
  const { values, positionals } = parse(argv);
  if (!values.a2a) throw new UsageError('keel serve speaks A2A: give --a2a.');
  if (positionals.length) throw new UsageError('keel serve takes no task: clients send them.');
  const host = values.host ?? '127.0.0.1';
  const given = givenTokens(io.env.KEEL_A2A_TOKEN);
  const tokens = given ?? [randomBytes(24).toString('base64url')];
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number (got "${values.port}").`);
  const flags = workerFlags(values, io.env);
  const served = path.resolve(io.cwd, values.workspace ?? '.');
  // Checked at start: a server that started on a missing folder would fail every task sent to it.
  if (!fs.existsSync(served) || !fs.statSync(served).isDirectory())
    throw new UsageError(`--workspace ${values.workspace ?? '.'} is not a folder: give the folder this server works on.`);
  const template = jobFromFlags({ ...values, workspace: served }, 'template', io.cwd);
  tellWithheld(io.env, flags.passEnv, io.stderr);
  const environment: JobEnvironment = {
    flags,
    // The one folder this server serves, named by its owner.
    allowed: [served],
    gate: localGate(flags.gate),
    budget: localFleetBudget(flags.fleetMaxCost),
    env: io.env,
    stderr: io.stderr,
    onSandboxUnavailable: sandboxNotice(flags.sandbox, io.stderr, NO_SANDBOX_JOBS),
    worker: 'a2a',
  };
  let next = 0;
  const server = await startA2aServer({
    host,
    port,
    tokens,
    name: values.name ?? `Keel (${path.basename(served)})`,
    description: `A coding agent working on ${path.basename(served)} under a fixed policy.`,
    run: async (task) => {
      const jobId = `a2a-${Date.now()}-${++next}`;
      const onEvent = (e: RuntimeEvent, state: ConversationState) => {
        const line = progressLine(e, state);
        if (line) task.progress(line);
      };
      const kept = await runFleetJob({ ...template, task: task.text }, { jobId, attempt: 1, signal: task.signal, onEvent }, environment);
      return servedOutcome(kept.result);
    },
  });
  io.stdout.write(`keel serve: A2A agent at ${server.url} (card: ${server.url}.well-known/agent-card.json)\n`);
  io.stdout.write(
    given
      ? 'keel serve: requests send "Authorization: Bearer TOKEN" with a token of KEEL_A2A_TOKEN\n'
      : `keel serve: requests send "Authorization: Bearer ${tokens[0]}" (printed once; set KEEL_A2A_TOKEN to choose it)\n`,
  );
  await new Promise<void>((resolve) => io.onInterrupt(() => resolve()));
  await server.close();
  return 130;
}

/** KEEL_A2A_TOKEN's tokens (comma-separated, one per caller), or undefined when it is unset. */
function givenTokens(value: string | undefined): string[] | undefined {
  if (!value) return undefined;
  const tokens = value.split(',').map((t) => t.trim());
  if (tokens.some((t) => t.length < 16 || /\s/.test(t)))
    throw new UsageError('KEEL_A2A_TOKEN holds tokens of at least 16 characters without spaces, separated by commas.');
  return tokens;
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: { ...FLEET_OPTIONS, a2a: { type: 'boolean' }, host: { type: 'string' }, port: { type: 'string' }, name: { type: 'string' } },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** A line of progress for the client: each call proposed and each finished answer of the task itself. */
function progressLine(e: RuntimeEvent, state: ConversationState): string | undefined {
  if (e.frame !== undefined) return undefined;
  if (e.type === 'intent_proposed') return `${e.intent.tool}: ${visibleText(e.intent.summary)}`;
  if (e.type === 'model_final') {
    const last = state.messages.find((m) => m.seq === e.seq);
    if (last?.type === 'assistant' && last.text.trim()) return visibleText(last.text.trim().split('\n', 1)[0]!);
  }
  return undefined;
}

function servedOutcome(r: RunResult): ServedOutcome {
  const state = r.status === 'done' || r.status === 'refused' ? 'completed' : r.status === 'stopped' ? 'canceled' : 'failed';
  const artifacts: ServedOutcome['artifacts'] = [{ name: 'result.json', mediaType: 'application/json', data: r }];
  if (r.patch) artifacts.push({ name: 'patch', mediaType: 'text/x-diff', text: r.patch });
  return { state, answer: r.answer || r.reason, artifacts };
}
