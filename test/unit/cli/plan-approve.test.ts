// Approving a Plan run's plan from the CLI, through the one task path (executeTask via runTask and
// keel resume): at a terminal the person approves (the task goes on in Agent mode with the same
// list and the editor's approval text), types a change (sent in Plan mode, asked again) or says no;
// without a terminal Keel says how to approve later, and `keel resume LOG --approve-plan` does it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { InputError, parseResumeArgs, parseRunArgs, UsageError } from '../../../src/cli/args.js';
import { PLAN_QUESTION } from '../../../src/cli/plan-prompt.js';
import { runResumeCommand } from '../../../src/cli/resume-command.js';
import { runTask, type CliIo } from '../../../src/cli/run.js';
import { USAGE } from '../../../src/cli/usage.js';
import { PLAN_APPROVED_TEXT, replay } from '../../../src/kernel/index.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { conversation, startModelServer, type ModelServer, type RecordedRequest } from '../../support/model-server.js';
import type { WireTurn } from '../../support/model-turn.js';
import { scratchDir } from '../../support/scratch.js';

const PLAN = [
  { id: '1', text: 'Read the parser', status: 'pending' },
  { id: '2', text: 'Fix exponents', status: 'pending' },
];
const REVISED = [...PLAN, { id: '3', text: 'Add a test for 1e3', status: 'pending' }];

const lastUserText = (req: RecordedRequest) => JSON.stringify(req.body.messages.at(-1));
const offered = (req: RecordedRequest): string[] => (req.body.tools ?? []).map((t: { name: string }) => t.name);

/** The model: each Plan-mode message gets a list (revised once a change was asked), then a summary. */
function planningModel(): (req: RecordedRequest) => WireTurn {
  return (req) => {
    const last = lastUserText(req);
    if (last.includes('tool_result')) return { text: ['That is the plan.'] };
    if (last.includes('Plan mode'))
      return { toolCalls: [{ name: 'todo_write', input: { todos: last.includes('add a test') ? REVISED : PLAN } }] };
    return { text: ['Carried out.'] };
  };
}

interface Terminal {
  io: CliIo & { cwd: string };
  out: () => string;
  err: () => string;
}

/** A terminal (TTY or not) that answers each plan question with the next of `answers`. */
function terminal(ws: string, env: NodeJS.ProcessEnv, tty: boolean, answers: string[] = []): Terminal {
  const stdin = Object.assign(new PassThrough(), { isTTY: tty });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => {
    out += c;
    if (String(c).includes(PLAN_QUESTION.trim())) setImmediate(() => stdin.write(`${answers.shift() ?? 'n'}\n`));
  });
  stderr.on('data', (c) => (err += c));
  return { io: { stdin, stdout, stderr, env, cwd: ws, onInterrupt: () => () => undefined }, out: () => out, err: () => err };
}

describe('keel run --mode plan: approving the plan', function () {
  this.timeout(60_000);
  let server: ModelServer;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const workspace = (name: string) => {
    const ws = path.join(dir, name);
    fs.mkdirSync(ws, { recursive: true });
    return ws;
  };
  const runArgs = (ws: string, ...rest: string[]) => [
    'run',
    '--workspace',
    ws,
    '--base-url',
    server.anthropicBaseURL,
    '--no-checkpoints',
    ...rest,
  ];

  beforeEach(async () => {
    dir = scratchDir('cli-plan-approve');
    env = { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache'), ANTHROPIC_API_KEY: 'test-key' };
    server = await startModelServer(conversation(planningModel()));
  });
  afterEach(() => server.close());

  it('at a terminal: a typed change is sent in Plan mode and asked again; yes goes on in Agent mode with the same list', async () => {
    const ws = workspace('tty');
    const log = path.join(dir, 'tty.jsonl');
    const t = terminal(ws, env, true, ['add a test too', 'y']);
    const code = await runTask(parseRunArgs(runArgs(ws, '--mode', 'plan', '--log', log, 'fix the parser'), ws), t.io);
    assert.equal(code, 0, t.err());
    assert.equal(t.out().split(PLAN_QUESTION.trim()).length - 1, 2, 'asked once per plan');
    const reqs = server.requests;
    // The change: a user message in Plan mode (the model is told the mode), read tools only.
    const change = reqs.find((r) => lastUserText(r).includes('add a test too'))!;
    assert.match(lastUserText(change), /Plan mode/);
    assert.ok(!offered(change).includes('write_file'));
    // The approval: the editor's text, in Agent mode (no mode note, write tools back), the revised list kept.
    const approval = reqs.at(-1)!;
    assert.ok(lastUserText(approval).includes(PLAN_APPROVED_TEXT.slice(0, 40)));
    assert.doesNotMatch(lastUserText(approval), /Plan mode/);
    assert.ok(offered(approval).includes('write_file'));
    const events = loadLog(log).events;
    assert.deepEqual(
      events.filter((e) => e.type === 'mode_set').map((e) => (e as { mode: string }).mode),
      ['plan', 'agent'],
    );
    assert.deepEqual(replay(events).ledger.todos, REVISED, 'the revised list is the one carried out');
    assert.doesNotMatch(t.err(), /--approve-plan/);
  });

  it('at a terminal: no ends the task with the plan unapproved', async () => {
    const ws = workspace('no');
    const t = terminal(ws, env, true, ['n']);
    assert.equal(await runTask(parseRunArgs(runArgs(ws, '--mode', 'plan', 'fix the parser'), ws), t.io), 0);
    assert.equal(server.requests.length, 2, 'nothing sent after the no');
  });

  it('without a terminal: says how to approve; keel resume LOG --approve-plan carries it out in Agent mode', async () => {
    const ws = workspace('ci');
    const log = path.join(dir, 'ci.jsonl');
    const ci = terminal(ws, env, false);
    assert.equal(await runTask(parseRunArgs(runArgs(ws, '--mode', 'plan', '--log', log, 'fix the parser'), ws), ci.io), 0);
    assert.ok(ci.err().includes(`keel resume ${log} --approve-plan`), ci.err());
    assert.equal(server.requests.length, 2);

    const resumed = terminal(ws, env, false);
    const code = await runResumeCommand([log, '--approve-plan', '--workspace', ws, '--base-url', server.anthropicBaseURL], resumed.io);
    assert.equal(code, 0, resumed.err());
    const approval = server.requests.at(-1)!;
    assert.ok(lastUserText(approval).includes(PLAN_APPROVED_TEXT.slice(0, 40)));
    assert.ok(offered(approval).includes('write_file'));
    const state = loadLog(log).events.filter((e) => e.type === 'mode_set');
    assert.equal(state.length, 2);
    assert.doesNotMatch(resumed.err(), /--approve-plan/, 'an approved plan is not offered again');
  });

  it('keel resume --approve-plan refuses a log with no plan waiting (exit 2), and keel run refuses the flag', async () => {
    const ws = workspace('refuse');
    const log = path.join(dir, 'agent.jsonl');
    await runTask(parseRunArgs(runArgs(ws, '--log', log, 'fix the parser'), ws), terminal(ws, env, false).io);
    const before = server.requests.length;
    await assert.rejects(
      runResumeCommand([log, '--approve-plan', '--workspace', ws, '--base-url', server.anthropicBaseURL], terminal(ws, env, false).io),
      (e: Error) => e instanceof InputError && /has no plan waiting for approval: the task is not in Plan mode/.test(e.message),
    );
    assert.equal(server.requests.length, before, 'nothing sent');
    assert.throws(() => parseRunArgs(['run', '--approve-plan', 'x'], ws), UsageError);
    assert.equal(parseResumeArgs([log, '--approve-plan'], ws).approvePlan, true);
    assert.match(USAGE, /keel resume LOG .*\[--approve-plan\]/);
  });
});
