// Issue 34, problem 3: the stand-in of `npm start -- --stand-in` (test/e2e/lib/fixer-model.ts) is
// honest. Run through `keel run` over real HTTP on a copy of examples/failing-tests, it says first
// that it is a scripted stand-in of one task; in Plan mode it reads and plans instead of proposing
// edits and commands; as an agent that only reads it reads and explains; and it says the tests
// pass only when the last test run says so.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { say, STAND_IN_INTRO, standInModel, toolHistory } from '../../e2e/lib/fixer-model.js';
import { scratchDir } from '../../support/scratch.js';

const CONFIG = scratchDir('stand-in-config');
const CACHE = scratchDir('stand-in-cache');
const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE = path.join(ROOT, 'examples', 'failing-tests');

function keel(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import=tsx', path.join(ROOT, 'src/cli/main.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, XDG_CONFIG_HOME: CONFIG, XDG_CACHE_HOME: CACHE, ANTHROPIC_API_KEY: 'test-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the stand-in of npm start -- --stand-in is honest', function () {
  this.timeout(90_000);
  let server: ModelServer;
  let work: string;

  beforeEach(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-stand-in-'));
    fs.cpSync(EXAMPLE, work, { recursive: true });
    server = await startModelServer(standInModel());
  });
  afterEach(async () => {
    await server.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const run = (...args: string[]) => keel(['run', '--workspace', work, '--base-url', server.anthropicBaseURL, ...args]);
  const calledTools = () => server.requests.flatMap((r) => toolHistory(r).map((s) => s.name)).filter((n, i, all) => all.indexOf(n) === i);

  it('in Plan mode says what it is, reads and plans, and proposes no edit or command', async () => {
    const ran = await run('--mode', 'plan', 'fix the failing tests');
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    assert.ok(ran.stdout.includes(STAND_IN_INTRO.trim()), 'it says it is a scripted stand-in of one task');
    assert.deepEqual(calledTools(), ['read_file', 'todo_write'], 'it read and planned');
    assert.doesNotMatch(ran.stdout, /blocked_by|not available in Plan mode|Failed/);
    assert.ok(ran.stdout.includes(say.planned));
    assert.doesNotMatch(ran.stdout, /tests pass/i);
  });

  it('carries out its plan once it is approved (keel resume --approve-plan): the edit, the tests, then what they say', async () => {
    const log = path.join(work, '..', `${path.basename(work)}.jsonl`);
    const planned = await run('--mode', 'plan', '--log', log, 'fix the failing tests');
    assert.equal(planned.code, 0, planned.stdout + planned.stderr);
    const resumed = await keel([
      'resume',
      log,
      '--approve-plan',
      '--approve',
      'all',
      '--workspace',
      work,
      '--base-url',
      server.anthropicBaseURL,
    ]);
    fs.rmSync(log, { force: true });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.deepEqual(calledTools(), ['read_file', 'todo_write', 'edit_file', 'run_tests']);
    assert.ok(resumed.stdout.includes(say.done), resumed.stdout);
  });

  it('as an agent that only reads, reads and explains', async () => {
    fs.mkdirSync(path.join(work, '.keel/agents'), { recursive: true });
    fs.writeFileSync(path.join(work, '.keel/agents/reader.md'), '---\nname: reader\ndescription: Reads.\ntools: Read\n---\nRead only.\n');
    const ran = await run('--agent', 'reader', 'fix the failing tests');
    assert.equal(ran.code, 0, ran.stdout + ran.stderr);
    assert.deepEqual(calledTools(), ['read_file']);
    assert.ok(ran.stdout.includes(say.explained));
    assert.doesNotMatch(ran.stdout, /tests pass/i);
  });

  it('does not say the tests pass when the run after its edit still fails', async () => {
    // A second failing test the fix does not touch: the re-run still fails.
    const test = path.join(work, 'test', 'price.test.js');
    fs.appendFileSync(test, "\ntest('another check', () => { throw new Error('still broken'); });\n");
    const ran = await run('--approve', 'all', 'fix the failing tests');
    assert.deepEqual(calledTools().slice(0, 3), ['run_tests', 'read_file', 'edit_file']);
    assert.doesNotMatch(ran.stdout, /All tests pass/);
    assert.ok(ran.stdout.includes(say.stillFail), ran.stdout);
  });
});
