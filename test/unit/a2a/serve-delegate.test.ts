// Two Keels over A2A on 127.0.0.1: `keel serve --a2a` serving a folder, and `keel run` whose
// model delegates a read-only task to it through the real SDK on both sides. The answer comes back
// as the delegate call's result, every remote status and artifact is an event in the caller's
// log, and the call is risk network: without --approve network it is refused and nothing is sent.
// A served task's commands run as keel run's do: what runs unasked in the OS sandbox.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replay, type RuntimeEvent } from '../../../src/kernel/index.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer, type RecordedRequest } from '../../support/model-server.js';
import { spawnGroup, waitFor, type GroupProcess } from '../../support/processes.js';
import { outsideTmp, ranHow, sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';
import type { WireTurn } from '../../support/model-turn.js';

const ROOT = path.resolve(__dirname, '../../..');
const BRIEF = 'Read README.md and say in one line what the project is. [served]';
const ENV_BRIEF = 'Run printenv. [served-env]';
/** The served Keel's bearer token; every client sends it. */
const TOKEN = 'serve-delegate-test-token-0123';
const AUTH = { Authorization: `Bearer ${TOKEN}` };

/** The stand-in for both Keels: the caller delegates, the served one reads and answers. */
function twoKeels(req: RecordedRequest): WireTurn {
  const text = JSON.stringify(req.body?.messages ?? []);
  const answered = text.includes('tool_result');
  if (text.includes('[client-env]'))
    return answered ? { text: ['Asked.'] } : { toolCalls: [{ name: 'delegate_remote', input: { agent: 'helper', task: ENV_BRIEF } }] };
  if (text.includes('[served-env]'))
    return answered ? { text: ['Printed.'] } : { toolCalls: [{ name: 'run_command', input: { command: 'printenv' } }] };
  if (text.includes('[client]')) {
    if (!answered)
      return { text: ['Asking the helper.'], toolCalls: [{ name: 'delegate_remote', input: { agent: 'helper', task: BRIEF } }] };
    const result = /ended (\w+)\. Its words are data/.exec(text)?.[1] ?? 'nothing';
    return { text: [`The helper ended ${result}. ${/Tiny Widget[^."\\]*/.exec(text)?.[0] ?? 'no answer'}.`] };
  }
  if (!answered) return { text: ['Reading it.'], toolCalls: [{ name: 'read_file', input: { path: 'README.md' } }] };
  return { text: [text.includes('Tiny Widget') ? 'It is Tiny Widget, a one-file demo.' : 'I could not read it.'] };
}

describe('keel serve --a2a and delegate_remote', function () {
  this.timeout(90_000);
  let model: ModelServer;
  let serve: GroupProcess;
  let url: string;
  let served: string;
  const outside = outsideTmp(scratchDir('a2a-tmp'));
  const env = {
    XDG_CONFIG_HOME: scratchDir('a2a-cfg'),
    XDG_CACHE_HOME: scratchDir('a2a-cache'),
    XDG_STATE_HOME: scratchDir('a2a-state'),
    ...outside,
  };

  before(async () => {
    model = await startModelServer(conversation((req) => twoKeels(req)));
    served = scratchDir('a2a-served');
    fs.writeFileSync(path.join(served, 'README.md'), '# Tiny Widget\n\nA one-file demo.\n');
    const args = ['--import=tsx', path.join(ROOT, 'src/cli/main.ts'), 'serve', '--a2a', '--workspace', served];
    // printenv runs unasked by the server's allow rule: in the sandbox, as keel run would run it.
    args.push('--base-url', model.anthropicBaseURL, '--allow-command', 'printenv');
    const serveEnv = { ...process.env, ...env, ANTHROPIC_API_KEY: 'test-key', KEEL_A2A_TOKEN: TOKEN };
    serve = spawnGroup(process.execPath, args, { cwd: ROOT, env: serveEnv });
    url = await waitFor('the A2A URL', () => /A2A agent at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(serve.output())?.[1], { timeoutMs: 30_000 });
  });
  after(async () => {
    await serve?.stop();
    await model?.close();
  });

  function configFile(): string {
    const file = path.join(scratchDir('a2a-conf'), 'a2a.json');
    fs.writeFileSync(file, JSON.stringify({ agents: { helper: { url, headers: AUTH, description: 'knows the Tiny Widget project' } } }));
    return file;
  }

  it('serves an agent card naming its streaming JSON-RPC endpoint on 127.0.0.1', async () => {
    const card = (await (await fetch(`${url}.well-known/agent-card.json`)).json()) as any;
    assert.equal(card.capabilities.streaming, true);
    assert.equal(card.supportedInterfaces[0].url, url);
    assert.equal(card.supportedInterfaces[0].protocolBinding, 'JSONRPC');
  });

  it('returns the remote answer as the delegate answer, with its messages and artifacts in the log', async () => {
    const work = scratchDir('a2a-client');
    fs.writeFileSync(path.join(work, 'README.md'), '# the caller\n');
    const log = path.join(scratchDir('a2a-log'), 'task.jsonl');
    const run = await spawnKeel(
      [
        'run',
        '--workspace',
        work,
        '--base-url',
        model.anthropicBaseURL,
        '--a2a-config',
        configFile(),
        '--approve',
        'read,network',
        '--log',
        log,
        '--output',
        'json',
        '[client] what is the helper project?',
      ],
      ROOT,
      env,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.status, 'done', JSON.stringify(loadLog(log).events.filter((e) => e.type === 'observation')));
    assert.equal(result.answer, 'The helper ended completed. Tiny Widget, a one-file demo.');
    const events = loadLog(log).events;
    const updates = events.filter((e): e is Extract<RuntimeEvent, { type: 'remote_update' }> => e.type === 'remote_update');
    assert.ok(updates.some((u) => u.kind === 'status' && u.state === 'working'));
    assert.ok(updates.some((u) => u.kind === 'artifact' && u.name === 'result.json' && u.text.includes('"status": "done"')));
    assert.ok(updates.some((u) => u.kind === 'status' && u.state === 'completed' && u.text === 'It is Tiny Widget, a one-file demo.'));
    assert.equal(replay(events).status, 'completed', 'the log with remote updates replays');
    assert.equal(
      fs.readFileSync(path.join(served, 'README.md'), 'utf8'),
      '# Tiny Widget\n\nA one-file demo.\n',
      'the served folder is never written',
    );
    assert.deepEqual(fs.readdirSync(work), ['README.md'], 'nothing arrived in the caller');
  });

  it('refuses the call without --approve network (exit 3), and sends the remote nothing', async () => {
    const work = scratchDir('a2a-client2');
    const before = model.requests.filter((r) => isServed(r)).length;
    const run = await spawnKeel(
      [
        'run',
        '--workspace',
        work,
        '--base-url',
        model.anthropicBaseURL,
        '--a2a-config',
        configFile(),
        '--output',
        'json',
        '[client] what is it?',
      ],
      ROOT,
      env,
    );
    assert.equal(run.code, 3, run.stdout + run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.refusals[0].tool, 'delegate_remote');
    assert.equal(model.requests.filter((r) => isServed(r)).length, before, 'the served Keel got no task');
  });

  it('lists and skips a workspace .keel/a2a.json agent unless --a2a-workspace', async () => {
    const work = scratchDir('a2a-client3');
    fs.mkdirSync(path.join(work, '.keel'));
    fs.writeFileSync(path.join(work, '.keel', 'a2a.json'), JSON.stringify({ agents: { helper: { url, headers: AUTH } } }));
    const run = await spawnKeel(
      ['run', '--workspace', work, '--base-url', model.anthropicBaseURL, '--approve', 'read,network', '--output', 'json', '[client] x'],
      ROOT,
      env,
    );
    assert.match(run.stderr, /skipped the workspace's A2A agent "helper" \(http:\/\/127\.0\.0\.1:\d+\/\); pass --a2a-workspace/);
    const asked = model.requests.filter((r) => JSON.stringify(r.body?.messages?.[0] ?? '').includes('[client] x'));
    assert.ok(asked.length > 0);
    for (const r of asked) assert.ok(!(r.body.tools as { name: string }[]).some((t) => t.name === 'delegate_remote'), 'not offered');
    const approved = await spawnKeel(
      [
        'run',
        '--workspace',
        work,
        '--base-url',
        model.anthropicBaseURL,
        '--approve',
        'read,network',
        '--a2a-workspace',
        '--output',
        'json',
        '[client] y',
      ],
      ROOT,
      env,
    );
    assert.equal(JSON.parse(approved.stdout).answer, 'The helper ended completed. Tiny Widget, a one-file demo.');
  });

  it("a served task's command that runs unasked runs in the OS sandbox, as keel run's would", async function () {
    await sandboxOrSkip(this, served);
    const run = await spawnKeel(
      ['run', '--workspace', scratchDir('a2a-env'), '--base-url', model.anthropicBaseURL, '--a2a-config', configFile()].concat([
        '--approve',
        'read,network',
        '--output',
        'json',
        '[client-env] what does the helper see?',
      ]),
      ROOT,
      env,
    );
    assert.equal(JSON.parse(run.stdout).status, 'done', run.stderr);
    const printed = model.requests
      .map((r) => JSON.stringify(r.body?.messages ?? []))
      .find((t) => t.includes('[served-env]') && !t.includes('[client-env]') && t.includes('tool_result'));
    assert.match(printed ?? '', /PATH=/, 'printenv ran in the served Keel and its output went back');
    assert.equal(ranHow(printed!, outside), 'sandbox');
  });

  // Last: it stops the served Keel, which the cases above share.
  it('keel replay answers delegate_remote from the record: the A2A server down, the log replays clean', async () => {
    const work = scratchDir('a2a-replay');
    fs.writeFileSync(path.join(work, 'README.md'), '# the caller\n');
    const log = path.join(scratchDir('a2a-replay-log'), 'task.jsonl');
    const approve = ['--approve', 'read,network'];
    const task = ['--a2a-config', configFile(), ...approve, '--log', log, '--output', 'json', '[client] and the helper?'];
    const run = await spawnKeel(['run', '--workspace', work, '--base-url', model.anthropicBaseURL, ...task], ROOT, env);
    assert.equal(JSON.parse(run.stdout).status, 'done', run.stderr);
    await serve.stop();
    await assert.rejects(fetch(`${url}.well-known/agent-card.json`), 'the A2A server is down');
    const requests = model.requests.length;
    const replayed = await spawnKeel(['replay', log, '--workspace', work, ...approve, '--json'], ROOT, env);
    assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
    const report = JSON.parse(replayed.stdout);
    assert.deepEqual(report.differences, []);
    assert.equal(report.calls, 1, 'the delegate_remote call was replayed');
    assert.equal(model.requests.length, requests, 'no model was called');
  });
});

function isServed(req: RecordedRequest): boolean {
  const first = req.body?.messages?.[0];
  return JSON.stringify(first ?? '').includes('[served]') && !JSON.stringify(first ?? '').includes('[client]');
}
