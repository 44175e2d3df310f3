// Full disks, on a real tmpfs that fills up (issue 22, item 2): every durable write of keel run
// and keel memory lands whole or says which file it could not write — never "Remembered" for a
// torn line, never an edit without its checkpoint unasked, never a stack trace — and a full
// config or cache folder does not block a run that does not need it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { runMemoryCommand } from '../../../src/cli/memory-command.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { bugLine, fixerModel } from '../../e2e/lib/fixer-model.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';
import { mountTmpfs, type Tmpfs } from '../../support/tmpfs.js';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE = path.join(ROOT, 'examples', 'failing-tests');
const NO_STACK = /\n\s+at /;

describe('keel on a full disk (a real tmpfs)', function () {
  this.timeout(120_000);
  let disk: Tmpfs;
  let server: ModelServer | undefined;
  let work: string;
  before(function () {
    const mounted = mountTmpfs(96);
    // CI runs as root: there the proof must run, never be skipped quietly.
    if (typeof mounted === 'string' && process.env.CI === 'true') throw new Error(`no tmpfs for the full-disk tests: ${mounted}`);
    if (typeof mounted === 'string') this.skip();
    disk = mounted as Tmpfs;
  });
  after(() => disk?.unmount());
  beforeEach(() => {
    work = path.join(scratchDir('full-disk'), 'ws');
    fs.cpSync(EXAMPLE, work, { recursive: true });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    disk.free();
    for (const name of fs.readdirSync(disk.dir)) fs.rmSync(path.join(disk.dir, name), { recursive: true, force: true });
  });

  it('keel memory add on a full config folder: an error naming the file, never "Remembered", no torn line', async () => {
    const env = { XDG_CONFIG_HOME: disk.dir, XDG_CACHE_HOME: scratchDir('cache') };
    const file = path.join(disk.dir, 'keel', 'memory', 'user.jsonl');
    const line = `Deploy notes: ${'x'.repeat(980)}`;
    // Memories until the file's last page has less room left than the next line needs.
    const texts: string[] = [];
    const room = () => 4096 - (fs.statSync(file).size % 4096);
    while (texts.length === 0 || room() > line.length + 200 || room() < 300) {
      texts.push(`Fact ${texts.length}: ${'f'.repeat(texts.length === 0 ? 10 : 500)}`);
      await runMemoryCommand(['add', '--scope', 'user', texts.at(-1)!], { stdout: new PassThrough(), cwd: work, env });
    }
    const before = fs.readFileSync(file);
    disk.fill();
    // The file's last page has room for part of the line only: the write comes back short.
    const run = await spawnKeel(['memory', 'add', '--scope', 'user', line], work, env);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.doesNotMatch(run.stdout, /Remembered/);
    assert.equal(run.stderr, `keel: Keel could not write the memory file ${file}: the disk is full (ENOSPC).\n`);
    assert.deepEqual(fs.readFileSync(file), before, 'the part that was written is cut off again');
    disk.free();
    const list = await spawnKeel(['memory', 'list', '--json'], work, env);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { text: string }[]).map((m) => m.text),
      texts,
    );
  });

  it('a task log that fills up mid-run: the run stops before acting on what it cannot record, the log stays whole', async () => {
    const log = path.join(disk.dir, 'fix.jsonl');
    // One page for the log's lock (LOG.lock, a few bytes, a page on tmpfs), one for the log.
    disk.fill(2);
    server = await startModelServer(fixerModel());
    const run = await spawnKeel(
      ['run', '--workspace', work, '--base-url', server.anthropicBaseURL, '--approve', 'all', '--log', log, 'fix the failing tests'],
      ROOT,
      { XDG_CONFIG_HOME: scratchDir('config'), XDG_CACHE_HOME: scratchDir('cache') },
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, new RegExp(`✗ run failed: Keel could not write the task log ${log}: the disk is full \\(ENOSPC\\)\\.`));
    assert.doesNotMatch(run.stdout + run.stderr, NO_STACK);
    assert.ok(fs.readFileSync(path.join(work, 'src/price.js'), 'utf8').includes(bugLine), 'the edit was not made');
    const loaded = loadLog(log);
    assert.equal(loaded.torn, undefined, 'no line was torn');
    assert.deepEqual(loaded.invalid, []);
    assert.ok(loaded.events.length > 0);
  });

  it('a log folder full from the start: the run does not start, and says which file', async () => {
    const log = path.join(disk.dir, 'logs', 'fix.jsonl');
    disk.fill();
    const run = await spawnKeel(['run', '--workspace', work, '--provider', 'scripted', '--log', log, 'look around'], ROOT, {
      XDG_CONFIG_HOME: scratchDir('config'),
      XDG_CACHE_HOME: scratchDir('cache'),
    });
    assert.equal(run.code, 1);
    assert.equal(run.stderr, `keel: Keel could not write the task log ${log}: the disk is full (ENOSPC).\n`);
  });

  it('a checkpoint that cannot be stored: the change asks first, and headless it is refused', async () => {
    disk.fill();
    server = await startModelServer(fixerModel());
    const run = await spawnKeel(
      ['run', '--workspace', work, '--base-url', server.anthropicBaseURL, '--approve', 'all', 'fix the failing tests'],
      ROOT,
      { XDG_CONFIG_HOME: scratchDir('config'), XDG_CACHE_HOME: disk.dir },
    );
    assert.doesNotMatch(run.stdout + run.stderr, NO_STACK);
    assert.match(run.stdout, /needs approval: No checkpoint could be kept before this change \(Keel could not write .* the disk is full/);
    assert.match(run.stdout, /not run, nobody to approve it: edit_file src\/price\.js/);
    assert.ok(fs.readFileSync(path.join(work, 'src/price.js'), 'utf8').includes(bugLine), 'no change without its checkpoint');

    // The user turned checkpoints off: nothing to keep, nothing to ask.
    const off = await spawnKeel(
      ['run', '--workspace', work, '--base-url', server.anthropicBaseURL, '--approve', 'all', '--no-checkpoints', 'fix the failing tests'],
      ROOT,
      { XDG_CONFIG_HOME: scratchDir('config'), XDG_CACHE_HOME: disk.dir },
    );
    assert.equal(off.code, 0, off.stdout + off.stderr);
    assert.ok(!fs.readFileSync(path.join(work, 'src/price.js'), 'utf8').includes(bugLine), 'fixed');
  });

  it('full config and cache folders do not block a run that needs neither', async () => {
    const config = path.join(disk.dir, 'config');
    const env = { XDG_CONFIG_HOME: config, XDG_CACHE_HOME: path.join(disk.dir, 'cache') };
    // A forgotten memory leaves a tombstone: opening the store wants to compact it.
    let said = '';
    const out = new PassThrough().on('data', (d) => (said += d));
    await runMemoryCommand(['add', '--scope', 'user', 'Old fact.'], { stdout: out, cwd: work, env });
    await runMemoryCommand(['add', '--scope', 'user', 'A fact that stays.'], { stdout: out, cwd: work, env });
    await runMemoryCommand(['forget', /Remembered (\S+) /.exec(said)![1]!], { stdout: out, cwd: work, env });
    disk.fill();
    const run = await spawnKeel(['run', '--workspace', work, '--provider', 'scripted', 'look around'], ROOT, env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /✓ done/);
    assert.doesNotMatch(run.stderr, /ENOSPC/);
  });
});
