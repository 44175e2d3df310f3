// The headless command end to end: a model stand-in speaking the Anthropic wire format over
// HTTP, a fixture project with a real failing test, and `keel run` as a user would run it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replay } from '../../../src/kernel/index.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { anthropicSse } from '../../support/anthropic-wire.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { bugLine, fixerModel, fixLine, requestText } from '../../e2e/lib/fixer-model.js';
import { scratchDir } from '../../support/scratch.js';

/** The runs' config folder (their memory store), so the tests never touch the user's. */
const CONFIG = scratchDir('cli-config');
/** Their cache folder (the checkpoint store), likewise. */
const CACHE = scratchDir('cli-cache');

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE = path.join(ROOT, 'examples', 'failing-tests');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function keel(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import=tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, XDG_CONFIG_HOME: CONFIG, XDG_CACHE_HOME: CACHE, ANTHROPIC_API_KEY: 'test-key', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('keel run (headless)', function () {
  this.timeout(60_000);
  let server: ModelServer;
  let work: string;

  beforeEach(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-cli-'));
    fs.cpSync(EXAMPLE, work, { recursive: true });
  });
  afterEach(async () => {
    await server?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('fixes the failing tests with --approve all and writes a valid log', async () => {
    const before = spawnSync('npm', ['test'], { cwd: work, encoding: 'utf8' });
    assert.notEqual(before.status, 0, 'the fixture starts out failing');
    server = await startModelServer(fixerModel());
    const log = path.join(work, '..', `${path.basename(work)}.jsonl`);
    const run = await keel([
      'run',
      '--workspace',
      work,
      '--base-url',
      server.anthropicBaseURL,
      '--approve',
      'all',
      '--log',
      log,
      'fix the failing tests',
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /All tests pass now/);
    assert.match(run.stdout, /proposed edit_file/);
    assert.match(
      run.stdout,
      /\ncontext [\d.]+k? of 1\.0M tokens \(system\+tools [\d.]+k · notes\+ledger [\d.]+k? · history [\d.]+k? · output reserve 32k\) · 0 folds · tokens in \d+, cache read 0, cache write 0, out \d+ · \$0\.\d{3}\n$/,
      'one line of context and cost at the end',
    );
    const source = fs.readFileSync(path.join(work, 'src/price.js'), 'utf8');
    assert.ok(source.includes(fixLine) && !source.includes(bugLine));
    const after = spawnSync('npm', ['test'], { cwd: work, encoding: 'utf8' });
    assert.equal(after.status, 0, after.stdout + after.stderr);
    const loaded = loadLog(log);
    assert.equal(loaded.torn, undefined);
    assert.deepEqual(loaded.invalid, []);
    const state = replay(loaded.events);
    assert.equal(state.status, 'completed');
    assert.ok(loaded.events.some((e) => e.type === 'observation' && e.observation.ok && /passed/.test(e.observation.summary ?? '')));
    fs.rmSync(log);
  });

  it('rejects what is not pre-approved when nobody can be asked, and tells the model', async () => {
    server = await startModelServer(fixerModel());
    const run = await keel(['run', '--workspace', work, '--base-url', server.anthropicBaseURL, 'fix the failing tests']);
    // Refused for want of an approval nobody could give: exit 3 (i27), and the model is told nobody
    // could answer, never that a person rejected the call (i22).
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.match(run.stdout, /✗ not run, nobody to approve it: run_tests/);
    assert.ok(server.requests.some((r) => requestText(r).includes('nobody can answer here')));
    assert.ok(!server.requests.some((r) => requestText(r).includes('The user rejected')));
    assert.ok(fs.readFileSync(path.join(work, 'src/price.js'), 'utf8').includes(bugLine), 'nothing changed');
  });

  it('refuses a protected path even with --approve all', async () => {
    server = await startModelServer((_req, i) =>
      i === 0
        ? { type: 'stream', body: anthropicTool('write_file', { path: '.vscode/tasks.json', content: '{}' }) }
        : { type: 'stream', body: anthropicText('ok') },
    );
    const run = await keel(['run', '--workspace', work, '--base-url', server.anthropicBaseURL, '--approve', 'all', 'configure tasks']);
    assert.equal(run.code, 3, run.stdout + run.stderr);
    assert.ok(!fs.existsSync(path.join(work, '.vscode/tasks.json')));
    assert.match(run.stdout, /permission_denied/);
  });

  it('exits 2 naming the flag on bad usage, and 1 with a clear message without a key', async () => {
    const bad = await keel(['run', '--max-turns', 'lots', 'x']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^keel: .*--max-turns.* \(see `keel run --help`\)\n$/, 'one line: the cause and where the help is');
    const existing = path.join(work, '..', `${path.basename(work)}-existing.jsonl`);
    fs.writeFileSync(existing, '{"format":"keel-log"}\n');
    const reused = await keel(['run', '--workspace', work, '--log', existing, 'x']);
    assert.equal(reused.code, 2);
    assert.match(reused.stderr, /--log .* already exists and a log holds one task: .* keel continue .*"…"/);
    assert.equal(fs.readFileSync(existing, 'utf8'), '{"format":"keel-log"}\n', 'the existing log is left alone');
    fs.rmSync(existing);
    const noKey = await keel(['run', '--workspace', work, 'x'], { ANTHROPIC_API_KEY: '' });
    assert.equal(noKey.code, 1);
    assert.match(noKey.stdout, /ANTHROPIC_API_KEY/);
    assert.doesNotMatch(noKey.stdout + noKey.stderr, /\n\s+at /, 'no stack trace');
  });

  it('exits 130 on Ctrl+C and leaves a valid log', async () => {
    server = await startModelServer(() => ({ type: 'stream', body: anthropicText('x'.repeat(200)), chunks: 20, pauseMs: 400 }));
    const log = path.join(work, '..', `${path.basename(work)}-int.jsonl`);
    const child = spawn(
      process.execPath,
      [
        '--import=tsx',
        path.join(ROOT, 'src/cli/main.ts'),
        'run',
        '--workspace',
        work,
        '--base-url',
        server.anthropicBaseURL,
        '--log',
        log,
        'slow',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, XDG_CONFIG_HOME: CONFIG, XDG_CACHE_HOME: CACHE, ANTHROPIC_API_KEY: 'k' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let signalled = false;
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('xxxx') && !signalled) {
        signalled = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((r) => child.on('close', r));
    assert.equal(code, 130, out);
    const loaded = loadLog(log);
    assert.equal(loaded.torn, undefined);
    assert.equal(replay(loaded.events).status, 'cancelled');
    fs.rmSync(log);
  });
});

function anthropicTool(name: string, input: unknown): string {
  return anthropicSse({ toolCalls: [{ name, input }] });
}
function anthropicText(text: string): string {
  return anthropicSse({ text: [text] });
}
