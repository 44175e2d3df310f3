// keel without a window, complete (issue 22, item 7): a missing --mcp-config is an error, a bad
// mcp.json entry names its file, server and field, --approve memory lets remember run headless,
// keel resume continues an interrupted task from its log (asking again for a call that was
// pending), and keel restore puts a task's files back through the runtime's restore.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { parseMcpConfig } from '../../../src/mcp/config.js';
import { bugLine, fixerModel, fixLine } from '../../e2e/lib/fixer-model.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE = path.join(ROOT, 'examples', 'failing-tests');
const PRICE = 'src/price.js';

describe('keel headless: complete', function () {
  this.timeout(120_000);
  let server: ModelServer;
  let dir: string;
  let env: Record<string, string>;
  let fullLog: string;

  const freshWorkspace = (name: string) => {
    const ws = path.join(dir, name);
    fs.cpSync(EXAMPLE, ws, { recursive: true });
    return ws;
  };
  const price = (ws: string) => fs.readFileSync(path.join(ws, PRICE), 'utf8');

  before(async () => {
    dir = scratchDir('cli-headless');
    env = { XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_CACHE_HOME: path.join(dir, 'cache') };
    server = await startModelServer(fixerModel());
    fullLog = path.join(dir, 'fix.jsonl');
    const ws = freshWorkspace('recorded');
    const run = await spawnKeel(
      ['run', '--workspace', ws, '--base-url', server.anthropicBaseURL, '--approve', 'all', '--log', fullLog, 'fix the failing tests'],
      ROOT,
      env,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
  });
  after(() => server.close());

  /** The recorded log cut right after the first event `cutAfter` accepts: a run killed there. */
  function interruptedLog(name: string, cutAfter: (e: ReturnType<typeof loadLog>['events'][number]) => boolean): string {
    const events = loadLog(fullLog).events;
    const at = events.find(cutAfter)!.seq;
    const lines = fs.readFileSync(fullLog, 'utf8').split('\n');
    const file = path.join(dir, name);
    fs.writeFileSync(file, `${lines.slice(0, at + 1).join('\n')}\n`);
    return file;
  }

  it('refuses a --mcp-config that is not there (exit 2) before anything runs', async () => {
    const ws = freshWorkspace('mcp-missing');
    const log = path.join(dir, 'mcp-missing.jsonl');
    const run = await spawnKeel(
      ['run', '--workspace', ws, '--provider', 'scripted', '--mcp-config', 'nope/mcp.json', '--log', log, 'look'],
      ROOT,
      env,
    );
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.equal(run.stderr, 'keel: --mcp-config nope/mcp.json: no such file.\n');
    assert.ok(!fs.existsSync(log), 'no log was started');
  });

  it('refuses an --a2a-config that is not there (exit 2) before anything runs', async () => {
    const ws = freshWorkspace('a2a-missing');
    const log = path.join(dir, 'a2a-missing.jsonl');
    const run = await spawnKeel(
      ['run', '--workspace', ws, '--provider', 'scripted', '--a2a-config', 'nope/a2a.json', '--log', log, 'look'],
      ROOT,
      env,
    );
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.equal(run.stderr, 'keel: --a2a-config nope/a2a.json: no such file.\n');
    assert.ok(!fs.existsSync(log), 'no log was started');
  });

  it('names the file, the server and the field of a bad mcp.json entry', async () => {
    const config = path.join(dir, 'bad-mcp.json');
    fs.writeFileSync(config, '{"servers": {"tools": {"type": "stdio", "comand": "node"}, "web": {"type": "http", "url": 42}}}');
    const parsed = parseMcpConfig(fs.readFileSync(config, 'utf8'), config, 'user');
    assert.deepEqual(
      parsed.problems.map((p) => [p.server, p.message]),
      [
        ['tools', '"command": expected string, received undefined; unknown field "comand"'],
        ['web', '"url": expected string, received number'],
      ],
    );
    const run = await spawnKeel(
      ['run', '--workspace', freshWorkspace('mcp-bad'), '--provider', 'scripted', '--mcp-config', config, 'look'],
      ROOT,
      env,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(
      run.stderr.includes(
        `keel: MCP config ${config} (server "tools"): "command": expected string, received undefined; unknown field "comand"\n`,
      ),
      run.stderr,
    );
  });

  it('--approve memory lets the model remember without a terminal; without it nobody can approve it', async () => {
    const memoryEnv = { ...env, XDG_CONFIG_HOME: path.join(dir, 'memory-config') };
    const remember = () =>
      startModelServer(
        conversation([
          { text: ['Noting that.'], toolCalls: [{ name: 'remember', input: { text: 'Tests run with npm test.' } }] },
          { text: ['Done.'] },
        ]),
      );
    let model = await remember();
    const refused = await spawnKeel(
      ['run', '--workspace', freshWorkspace('mem-1'), '--base-url', model.anthropicBaseURL, 'remember how to test'],
      ROOT,
      memoryEnv,
    );
    await model.close();
    assert.match(refused.stdout, /✗ not run, nobody to approve it: remember/);
    assert.equal(refused.code, 3, 'refused for want of an approval nobody could give');
    model = await remember();
    const ran = await spawnKeel(
      ['run', '--workspace', freshWorkspace('mem-2'), '--base-url', model.anthropicBaseURL, '--approve', 'memory', 'remember how to test'],
      ROOT,
      memoryEnv,
    );
    await model.close();
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /✓ approved remember .* \(by policy\)\n {2}↳ ok: remembered /);
    const list = await spawnKeel(['memory', 'list', '--workspace', path.join(dir, 'mem-2')], ROOT, memoryEnv);
    assert.match(list.stdout, /Tests run with npm test\./);
  });

  it('keel resume continues a run killed mid-turn: the turn streams again and the task finishes in the same log', async () => {
    const events = loadLog(fullLog).events;
    const editTurn = events.find((e) => e.type === 'intent_proposed' && e.intent.tool === 'edit_file')!.seq;
    const log = interruptedLog('killed-mid-turn.jsonl', (e) => e.type === 'text_delta' && e.seq > editTurn - 4);
    const ws = freshWorkspace('resume-turn');
    const resume = ['resume', log, '--workspace', ws, '--base-url', server.anthropicBaseURL, '--approve', 'all', '--output', 'json'];
    const run = await spawnKeel(resume, ROOT, env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(price(ws).includes(fixLine), 'the edit was made: resume approved writes, as the run did');
    // The same result record as keel run's, for the whole task: its task text comes from the log.
    const result = JSON.parse(run.stdout);
    assert.deepEqual([result.status, result.exitCode, result.task, result.log], ['done', 0, 'fix the failing tests', log]);
    assert.deepEqual(
      result.filesChanged.map((f: { path: string; change: string }) => [f.path, f.change]),
      [[PRICE, 'modified']],
    );
    const resumed = loadLog(log);
    assert.deepEqual([resumed.torn, resumed.invalid], [undefined, []]);
    assert.ok(resumed.events.some((e) => e.type === 'run_resumed'));
    assert.equal(resumed.events.at(-1)?.type, 'run_finished');
  });

  it('keel resume asks again for a call that was approved when the run was killed (refused headless)', async () => {
    const events = loadLog(fullLog).events;
    const edit = events.find((e) => e.type === 'intent_proposed' && e.intent.tool === 'edit_file')!;
    const id = edit.type === 'intent_proposed' ? edit.intent.id : '';
    const log = interruptedLog('killed-after-approval.jsonl', (e) => e.type === 'intent_approved' && e.intentId === id);
    const ws = freshWorkspace('resume-approved');
    const run = await spawnKeel(['resume', log, '--workspace', ws, '--base-url', server.anthropicBaseURL], ROOT, env);
    assert.match(run.stdout, /\? edit_file .* needs approval: Keel was interrupted before this ran; approve it again to run it\./);
    assert.match(run.stdout, /✗ not run, nobody to approve it: edit_file/);
    assert.ok(price(ws).includes(bugLine), 'never re-run unasked');
    assert.equal(run.code, 3, 'a headless refusal: an approval nobody could give');

    const done = await spawnKeel(['resume', fullLog, '--workspace', ws, '--base-url', server.anthropicBaseURL], ROOT, env);
    assert.equal(done.code, 2);
    assert.match(
      done.stderr,
      /holds a task that was not interrupted \(it completed\): there is nothing to resume; keel continue .* "…" sends it a follow-up\./,
    );
  });

  it('keel restore --to STEP puts the files back through the runtime, logs it, and asks before overwriting a change', async () => {
    const ws = freshWorkspace('restore');
    const log = path.join(dir, 'restore.jsonl');
    const run = await spawnKeel(
      ['run', '--workspace', ws, '--base-url', server.anthropicBaseURL, '--approve', 'all', '--log', log, 'fix the failing tests'],
      ROOT,
      env,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.ok(price(ws).includes(fixLine));

    const back = await spawnKeel(['restore', log, '--to', '0'], ws, env);
    assert.equal(back.code, 0, back.stdout + back.stderr);
    assert.equal(back.stdout, `Restored ${PRICE} to how they were before the task changed them.\n`);
    assert.equal(price(ws), fs.readFileSync(path.join(EXAMPLE, PRICE), 'utf8'), 'byte for byte');
    const last = loadLog(log).events.at(-1);
    assert.equal(last?.type === 'checkpoint_recorded' && last.kind, 'restore', 'logged as a restore checkpoint, as the extension does');

    const again = await spawnKeel(['restore', log, '--to', '0'], ws, env);
    assert.match(again.stdout, /^Nothing to restore/);

    // Undo the restore: back to after the last step (the fix), but the user changed the file since.
    fs.writeFileSync(path.join(ws, PRICE), `${price(ws)}// my own note\n`);
    const steps = loadLog(log).events.filter((e) => e.type === 'checkpoint_recorded' && e.kind === 'step');
    const lastStep = steps.at(-1)!.type === 'checkpoint_recorded' ? (steps.at(-1) as { step: number }).step : 0;
    const declined = await spawnKeel(['restore', log, '--to', String(lastStep)], ws, env);
    assert.equal(declined.code, 1, declined.stdout + declined.stderr);
    assert.match(declined.stdout, /Nothing was restored: some files changed since the task last wrote them/);
    assert.match(price(ws), /my own note/);
    const bad = await spawnKeel(['restore', log, '--to', 'latest'], ws, env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--to takes the model step/);
    // A step past the task's last is a mistake said as one, not a restore reported as done.
    const before = fs.readFileSync(log, 'utf8');
    const past = await spawnKeel(['restore', log, '--to', '99'], ws, env);
    assert.equal(past.code, 2, past.stdout);
    assert.match(past.stderr, /^keel: --to 99: the task in .* has \d+ model steps; give a step from 0 to \d+\.\n$/);
    assert.equal(past.stdout, '');
    assert.equal(fs.readFileSync(log, 'utf8'), before, 'nothing logged');
  });
});
