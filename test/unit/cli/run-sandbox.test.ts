// A real `keel run` (no terminal) against a model stand-in, with the OS sandbox:
// - killed with SIGKILL while its command runs `sleep N; touch x`, x never appears and nothing
//   the command started survives — for a command the user approved (outside the sandbox) and one
//   an allow rule runs unasked (inside it);
// - with --approve execute on a workspace that is a folder of a bigger git repository, nothing
//   outside the workspace is read (strace on the whole run) and no secret of the parent reaches
//   the model, the output or the log;
// - where there is no bubblewrap, it says so once on stderr and every command asks (headless:
//   is refused).
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseRunArgs, UsageError } from '../../../src/cli/args.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { conversation, startModelServer, type ModelServer } from '../../support/model-server.js';
import { sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';
import { findTracer } from '../../support/shell-proof/trace-line.js';

const ROOT = path.resolve(__dirname, '../../..');
const TSX = pathToFileURL(require.resolve('tsx')).href;
const KEEL = [`--import=${TSX}`, path.join(ROOT, 'src/cli/main.ts')];

function runCommandTurns(commands: readonly string[]) {
  return conversation([
    ...commands.map((command, i) => ({ toolCalls: [{ id: `toolu_${i}`, name: 'run_command', input: { command } }] })),
    { text: ['Done.'] },
  ]);
}

function gitRepo(dir: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: 'A',
        GIT_AUTHOR_EMAIL: 'a@x',
        GIT_COMMITTER_NAME: 'A',
        GIT_COMMITTER_EMAIL: 'a@x',
      },
    });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'first');
}

/** Processes of the machine whose command line contains `needle`. */
function processesWith(needle: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return (
          fs.readFileSync(`/proc/${e}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(needle) &&
          !/\) Z /.test(fs.readFileSync(`/proc/${e}/stat`, 'utf8'))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Runs a program to its end without blocking this process (the model stand-in answers from it). */
function run(file: string, args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: ROOT,
      env: { ...process.env, ANTHROPIC_API_KEY: 'test-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function until(check: () => boolean, what: string, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
  }
}

describe('keel run with the OS sandbox', function () {
  // Each case starts keel through tsx; under strace on a loaded machine that takes a while.
  this.timeout(360_000);
  let server: ModelServer | undefined;
  afterEach(() => server?.close());

  for (const [how, flags] of [
    ['approved by --approve all (outside the sandbox)', ['--approve', 'all']],
    [
      'run unasked by allow rules (inside the sandbox)',
      ['--allow-command', 'echo', '--allow-command', 'sleep', '--allow-command', 'touch'],
    ],
  ] as const) {
    it(`killed with SIGKILL during \`sleep N; touch x\`, a command ${how} never touches x`, async function () {
      const ws = fs.realpathSync(scratchDir('kill9'));
      await sandboxOrSkip(this, ws);
      fs.writeFileSync(path.join(ws, 'README.md'), '# x\n');
      const tag = `${3 + Math.random()}`.slice(0, 8);
      server = await startModelServer(runCommandTurns([`echo started; sleep ${tag}; touch x`]));
      const keel = spawn(process.execPath, [...KEEL, 'run', '--workspace', ws, '--base-url', server.anthropicBaseURL, ...flags, 'go'], {
        cwd: ROOT,
        env: { ...process.env, ANTHROPIC_API_KEY: 'test-key' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      keel.stdout.on('data', (d) => (output += d));
      keel.stderr.on('data', (d) => (output += d));
      await until(() => processesWith(`sleep ${tag}`).length > 0, `the command to start (keel said:\n${output})`, 60_000);
      keel.kill('SIGKILL');
      await until(() => processesWith(`sleep ${tag}`).length === 0, 'the command to end with keel', 5000);
      await new Promise((r) => setTimeout(r, Number(tag) * 1000 + 1000));
      assert.ok(!fs.existsSync(path.join(ws, 'x')), `x appeared after keel was killed:\n${output}`);
    });
  }

  it('--approve execute in a folder of a bigger repository reads nothing outside it (strace on the whole run)', async function () {
    const tracer = findTracer();
    if ('missing' in tracer) {
      if (process.env.CI) throw new Error(tracer.missing);
      return this.skip();
    }
    const repo = fs.realpathSync(scratchDir('mono-run'));
    const secret = `KEELCANARY${randomBytes(6).toString('hex')}`;
    const put = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
      fs.writeFileSync(path.join(repo, rel), text);
    };
    put('secret.md', `committed ${secret}\n`);
    put('package.json', '{ "scripts": { "test": "touch pwned-parent" } }\n');
    put('conftest.py', 'open("pwned-conftest", "w")\n');
    put('app/README.md', '# app\n');
    put('app/test/a.test.js', "require('node:test')('a', () => {});\n");
    gitRepo(repo);
    put('secret.md', `committed ${secret}\nuncommitted ${secret}\n`);
    const ws = path.join(repo, 'app');
    await sandboxOrSkip(this, ws);
    const commands = [
      'git status',
      'git show HEAD',
      'git show HEAD:secret.md',
      'git diff',
      'git log -p -1',
      'cat ../secret.md',
      'ls ..',
      'npm test',
      'python3 -m pytest',
      'node --test',
      'cat README.md',
      'ls -la',
      'grep -rn app .',
    ];
    server = await startModelServer(runCommandTurns(commands));
    const log = path.join(scratchDir('mono-log'), 'run.jsonl');
    const trace = path.join(scratchDir('mono-trace'), 'strace.log');
    const args = ['-f', '-qq', '-e', 'trace=open,openat,openat2,execve,creat,mkdir,unlink,rename', '-o', trace, process.execPath, ...KEEL];
    const r = await run(tracer.strace, [
      ...args,
      'run',
      '--workspace',
      ws,
      '--base-url',
      server.anthropicBaseURL,
      '--approve',
      'execute',
      '--log',
      log,
      'look',
    ]);
    // Exit 3: some of these commands ask (git looks above the workspace) and nobody answers.
    assert.equal(r.status, 3, `keel exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
    const outside = fs
      .readFileSync(trace, 'utf8')
      .split('\n')
      .filter((l) => !/= -1 E/.test(l))
      .map((l) => /"([^"]+)"/.exec(l)?.[1])
      .filter((p): p is string => p?.startsWith(`${repo}/`) === true && !p.startsWith(`${ws}/`) && p !== ws);
    assert.deepEqual([...new Set(outside)], [], 'files of the repository outside the workspace were opened');
    for (const f of ['pwned-parent', 'pwned-conftest', 'app/pwned-conftest']) assert.ok(!fs.existsSync(path.join(repo, f)), f);
    const events = loadLog(log).events;
    const ran = events.filter((e) => e.type === 'intent_started').length;
    assert.ok(ran >= 3, `only ${ran} commands ran: the test would prove nothing`);
    const logged = fs.readFileSync(log, 'utf8') + r.stdout + r.stderr + JSON.stringify(server.requests);
    assert.ok(!logged.includes(secret), "the parent repository's secret reached the model, the output or the log");
  });

  it('without bubblewrap it says so once on stderr, and every command asks (refused without a terminal)', async function () {
    const ws = fs.realpathSync(scratchDir('nobwrap'));
    fs.writeFileSync(path.join(ws, 'README.md'), '# x\n');
    server = await startModelServer(runCommandTurns(['cat README.md', 'ls']));
    // A mount namespace of its own where /usr/bin/bwrap is an empty, non-executable file.
    const hide = `mount --bind /dev/null /usr/bin/bwrap && exec "$@"`;
    const probe = spawnSync('unshare', ['-m', 'sh', '-c', hide, 'sh', 'true']);
    if (probe.status !== 0) {
      if (process.env.CI) throw new Error(`cannot hide bwrap here: ${probe.stderr}`);
      return this.skip();
    }
    const log = path.join(scratchDir('nobwrap-log'), 'run.jsonl');
    const keel = ['run', '--workspace', ws, '--base-url', server.anthropicBaseURL, '--approve', 'execute', '--log', log, 'look'];
    const r = await run('unshare', ['-m', 'sh', '-c', hide, 'sh', process.execPath, ...KEEL, ...keel]);
    // Exit 3: a call needed an approval nobody gave (keel run's exit status for refusals).
    assert.equal(r.status, 3, r.stdout + r.stderr);
    const said = r.stderr.split('\n').filter((l) => l.startsWith('keel: no sandbox for commands'));
    assert.equal(said.length, 1, r.stderr);
    assert.match(said[0]!, /bubblewrap \(bwrap\) is not installed.*Every command asks/);
    const events = loadLog(log).events;
    assert.equal(events.filter((e) => e.type === 'intent_started').length, 0, 'no command ran');
    // Refused because nobody can answer (issue 22): the model is not told a person rejected them.
    assert.equal(events.filter((e) => e.type === 'intent_rejected' && e.unanswered === true).length, 2);
    assert.equal(events.filter((e) => e.type === 'observation' && e.observation.code === 'permission_denied').length, 2);
  });
});

describe('keel run --sandbox', () => {
  it('takes unasked (the default), everything or off, and nothing else', () => {
    assert.equal(parseRunArgs(['run', 'task'], '/').sandbox, 'unasked');
    assert.equal(parseRunArgs(['run', '--sandbox', 'everything', 'task'], '/').sandbox, 'everything');
    assert.equal(parseRunArgs(['run', '--sandbox', 'off', 'task'], '/').sandbox, 'off');
    assert.throws(() => parseRunArgs(['run', '--sandbox', 'none', 'task'], '/'), UsageError);
  });
});
