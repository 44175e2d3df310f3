// `keel replay` as a user runs it: a task recorded by `keel run` (the failing-tests fixer
// stand-in) replays clean from its checkpoints in the task's folder, an edited starting
// workspace is reported at the step of the edit, and bad usage exits 2 with a clear message.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { bugLine, fixerModel } from '../../e2e/lib/fixer-model.js';
import { scratchDir } from '../../support/scratch.js';
import { spawnKeel } from '../../support/keel-cli.js';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE = path.join(ROOT, 'examples', 'failing-tests');

const keel = spawnKeel;

describe('keel replay (the command)', function () {
  this.timeout(120_000);
  let dir: string;
  let work: string;
  let log: string;
  let env: Record<string, string>;

  before(async () => {
    dir = scratchDir('cli-replay');
    work = path.join(dir, 'ws');
    fs.cpSync(EXAMPLE, work, { recursive: true });
    env = {
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_CACHE_HOME: path.join(dir, 'cache'),
    };
    log = path.join(dir, 'fix.jsonl');
    const server: ModelServer = await startModelServer(fixerModel());
    try {
      const run = await keel(
        ['run', '--workspace', work, '--base-url', server.anthropicBaseURL, '--approve', 'all', '--log', log, 'fix the failing tests'],
        ROOT,
        env,
      );
      assert.equal(run.code, 0, run.stdout + run.stderr);
    } finally {
      await server.close();
    }
  });

  it('replays clean in the task folder, starting from the checkpoints, and changes nothing there', async () => {
    const fixed = fs.readFileSync(path.join(work, 'src/price.js'), 'utf8');
    const run = await keel(['replay', log, '--approve', 'all'], work, env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^replays clean \(\d+ steps, \d+ tool calls\)\n$/);
    assert.equal(fs.readFileSync(path.join(work, 'src/price.js'), 'utf8'), fixed, 'the folder is left as the task left it');
  });

  it('reports an edit that no longer applies at the step that made it, exit 1, and as JSON', async () => {
    const start = path.join(dir, 'changed');
    fs.cpSync(EXAMPLE, start, { recursive: true });
    const source = path.join(start, 'src/price.js');
    fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace(bugLine, 'return Math.trunc((cents * percent) / 100);'));
    const edit = loadLog(log).events.find((e) => e.type === 'intent_proposed' && e.intent.tool === 'edit_file')!;

    const text = await keel(['replay', log, '--approve', 'all', '--workspace', start], ROOT, env);
    assert.equal(text.code, 1, text.stdout + text.stderr);
    assert.match(text.stdout, new RegExp(`^step \\d+  seq ${edit.seq}  edit  edit_file\\n  recorded: ok`, 'm'));

    const json = await keel(['replay', log, '--approve', 'all', '--workspace', start, '--json'], ROOT, env);
    assert.equal(json.code, 1);
    const report = JSON.parse(json.stdout) as { differences: { seq: number; kind: string }[] };
    assert.ok(
      report.differences.some((d) => d.seq === edit.seq && d.kind === 'edit'),
      json.stdout,
    );
    assert.ok(fs.readFileSync(source, 'utf8').includes('Math.trunc'), 'the given workspace is never written');

    const read = loadLog(log).events.find((e) => e.type === 'intent_proposed' && e.intent.tool === 'read_file')!;
    const early = await keel(['replay', log, '--approve', 'all', '--workspace', start, '--until', String(read.seq - 1)], ROOT, env);
    assert.equal(early.code, 0, `before the changed file is read nothing differs: ${early.stdout}`);
  });

  it('decides with the approvals the log header records: no need to repeat --approve (issue 22)', async () => {
    assert.deepEqual(loadLog(log).policy, {
      autoApprove: ['read', 'write', 'execute', 'network'],
      approveUnclassified: true,
      autoApproveMemory: true,
      commandsAllow: [],
      commandsDeny: [],
      sandbox: 'unasked',
    });
    const run = await keel(['replay', log], work, env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^replays clean/);
    // Told otherwise, it decides with what it is told: with nothing pre-approved the decisions differ.
    const strict = await keel(['replay', log, '--approve', 'read'], work, env);
    assert.equal(strict.code, 1, strict.stdout);
    assert.match(strict.stdout, / {2}policy {2}/);
  });

  it('reports a step the recording never finished as interrupted, not as a difference (issue 22)', async () => {
    // kill -9 while the edit ran: the log ends after its intent_started, with a line cut mid-write.
    const lines = fs.readFileSync(log, 'utf8').split('\n');
    const events = loadLog(log).events;
    const edit = events.find((e) => e.type === 'intent_proposed' && e.intent.tool === 'edit_file')!;
    const started = events.find((e) => e.type === 'intent_started' && e.intentId === (edit.type === 'intent_proposed' && edit.intent.id))!;
    const cut = path.join(dir, 'cut.jsonl');
    fs.writeFileSync(cut, `${lines.slice(0, started.seq + 1).join('\n')}\n{"type":"obser`);
    const run = await keel(['replay', cut, '--workspace', EXAMPLE], ROOT, env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`step \\d+  seq ${edit.seq}  interrupted  edit_file`));
    assert.match(run.stdout, new RegExp(`line ${started.seq + 2} was cut off mid-write`));
    assert.match(run.stdout, /replays clean/);
  });

  it('stops at a damaged or unknown line with its number, exit 2; an unreadable log exits 2 (issue 22)', async () => {
    const lines = fs.readFileSync(log, 'utf8').split('\n');
    const damaged = path.join(dir, 'damaged.jsonl');
    const bad = [...lines];
    bad[6] = '{"type":"text_delta", garbage';
    fs.writeFileSync(damaged, bad.join('\n'));
    const run = await keel(['replay', damaged, '--workspace', EXAMPLE], ROOT, env);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(
      run.stderr,
      /damaged\.jsonl:7 cannot be read \(not JSON.*\); replay stops there\. Replay the part before it with --until 5\./,
    );
    assert.equal(run.stdout, '');

    const unknown = path.join(dir, 'unknown.jsonl');
    const newer = [...lines];
    newer[6] = JSON.stringify({ ...JSON.parse(lines[6]!), type: 'hologram_projected' });
    fs.writeFileSync(unknown, newer.join('\n'));
    const strange = await keel(['replay', unknown, '--workspace', EXAMPLE], ROOT, env);
    assert.equal(strange.code, 2, strange.stdout + strange.stderr);
    assert.match(strange.stderr, /unknown\.jsonl:7 cannot be read/);

    const notALog = path.join(dir, 'notes.txt');
    fs.writeFileSync(notALog, 'just some notes\n');
    const other = await keel(['replay', notALog, '--workspace', EXAMPLE], ROOT, env);
    assert.equal(other.code, 2, other.stdout + other.stderr);
    assert.match(other.stderr, /notes\.txt cannot be replayed: This file is not a Keel event log/);
    assert.doesNotMatch(other.stderr + strange.stderr + run.stderr, /\n\s+at /, 'no stack trace');
  });

  it('exits 2 with a clear message on bad usage, and asks for --workspace when the checkpoints are not there', async () => {
    const none = await keel(['replay'], ROOT, env);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Give exactly one log/);
    const missing = await keel(['replay', path.join(dir, 'nope.jsonl')], ROOT, env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /is not a file/);
    const until = await keel(['replay', log, '--until', 'soon'], work, env);
    assert.equal(until.code, 2);
    assert.match(until.stderr, /--until/);
    const elsewhere = await keel(['replay', log, '--approve', 'all'], scratchDir('cli-replay-elsewhere'), env);
    assert.equal(elsewhere.code, 2, elsewhere.stdout + elsewhere.stderr);
    assert.match(elsewhere.stderr, /give --workspace DIR/);
    assert.doesNotMatch(elsewhere.stderr, /\n\s+at /, 'no stack trace');
    const help = await keel(['replay', '--help'], ROOT, env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /keel replay LOG \[--workspace DIR\] \[--until SEQ\] \[--json\]/);
  });
});
