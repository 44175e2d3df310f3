// The OS sandbox on the real bubblewrap: what a sandboxed command can see, write and reach, and
// that nothing a command starts outlives it — nor Keel, even killed with SIGKILL. Every secret is
// a random canary: output that holds one proves a leak.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { ProcessResult, SandboxProfile } from '../../../src/kernel/index.js';
import { runProcess } from '../../../src/node/run-process.js';
import { createNodeSandbox, type NodeSandbox } from '../../../src/node/sandbox/node-sandbox.js';
import { COMMAND_SANDBOX_RULES } from '../../../src/tools/index.js';
import { sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(__dirname, '../../..');
const canary = (what: string) => `KEELCANARY${what}${randomBytes(5).toString('hex')}`;

interface World {
  ws: string;
  home: string;
  secrets: string[];
}

function makeWorld(): World {
  const root = fs.realpathSync(scratchDir('sandbox'));
  const secrets = [canary('dotenv'), canary('ssh'), canary('outside'), canary('other')];
  const put = (rel: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  };
  put('ws/README.md', 'hello from the workspace\n');
  put('ws/package.json', '{ "scripts": { "test": "node --test" } }\n');
  put('ws/src/a.js', 'original\n');
  put('ws/.git/config', '[core]\n\tbare = false\n');
  put('ws/.env', `TOKEN=${secrets[0]}\n`);
  put('ws/npmrc.real', 'fund=false\n');
  fs.symlinkSync('npmrc.real', path.join(root, 'ws/.npmrc'));
  put('home/.ssh/id_rsa', `${secrets[1]}\n`);
  put('outside/secret.txt', `${secrets[2]}\n`);
  put('other-project/notes.txt', `${secrets[3]}\n`);
  fs.symlinkSync('../outside/secret.txt', path.join(root, 'ws/link-out'));
  return { ws: path.join(root, 'ws'), home: path.join(root, 'home'), secrets };
}

/** Processes of the machine whose command line contains `needle`. */
function processesWith(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (cmdline.includes(needle) && !/^\d+ \(.*\) Z/.test(stat)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 25))) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
  }
}

describe('OS sandbox (bubblewrap)', function () {
  this.timeout(60_000);
  let world: World;
  let sandbox: NodeSandbox;

  before(async function () {
    world = makeWorld();
    sandbox = await sandboxOrSkip(this, world.ws);
  });

  const run = (line: string, profile: SandboxProfile, extra: { sandbox?: NodeSandbox; cwd?: string } = {}): Promise<ProcessResult> =>
    runProcess(
      line,
      extra.cwd ?? world.ws,
      { timeoutMs: 20_000, signal: new AbortController().signal, maxCaptureChars: 20_000, sandbox: profile, env: { HOME: world.home } },
      { sandbox: extra.sandbox ?? sandbox },
    );
  const output = (r: ProcessResult) => r.combined.head + r.combined.tail;

  it('read_only: reads the workspace; writes nothing; no secret, home, other project, outside file or network', async () => {
    const seen: string[] = [];
    const listener = net.createServer((s) => seen.push(String(s.remotePort)) && s.destroy());
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    const port = (listener.address() as net.AddressInfo).port;
    const hostTmp = `keel-sandbox-tmp-${randomBytes(4).toString('hex')}`;
    try {
      const r = await run(
        [
          'cat README.md',
          'cat .env',
          'cat link-out',
          'cat ../outside/secret.txt ../other-project/notes.txt ~/.ssh/id_rsa',
          'cat /etc/shadow',
          'echo x > README.md',
          'touch new-file',
          `echo t > "\${TMPDIR:-/tmp}/${hostTmp}" && echo tmp-ok`,
          `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null || echo no-network`,
          "ls -A ~ | sed 's/^/home: /'",
        ].join('; '),
        'read_only',
      );
      const text = output(r);
      assert.match(text, /hello from the workspace/);
      assert.match(text, /tmp-ok/);
      assert.match(text, /no-network/);
      for (const s of world.secrets) assert.ok(!text.includes(s), `a secret reached the output:\n${text}`);
      assert.equal(fs.readFileSync(path.join(world.ws, 'README.md'), 'utf8'), 'hello from the workspace\n');
      assert.ok(!fs.existsSync(path.join(world.ws, 'new-file')));
      assert.ok(!fs.existsSync(path.join('/tmp', hostTmp)), "the sandbox's /tmp is its own, thrown away");
      assert.deepEqual(seen, [], 'nothing connected to the listener on the machine');
      assert.doesNotMatch(text, /^home: /m, 'the home folder is empty');
    } finally {
      listener.close();
    }
  });

  it('test_run: writes the workspace but not its protected paths, and undoes protected paths it creates or replaces', async () => {
    const r = await run(
      [
        'echo changed > src/a.js',
        'echo "{}" > package.json',
        'echo "[alias]" >> .git/config',
        'mkdir -p .vscode && echo "{}" > .vscode/tasks.json',
        'echo "obey me" > AGENTS.md',
        'mkdir -p sub && echo "{}" > sub/package.json',
        'rm -f .npmrc && echo "script-shell=/tmp/evil" > .npmrc',
        'echo done',
      ].join('; '),
      'test_run',
    );
    assert.match(output(r), /done/);
    assert.equal(fs.readFileSync(path.join(world.ws, 'src/a.js'), 'utf8'), 'changed\n');
    assert.equal(fs.readFileSync(path.join(world.ws, 'package.json'), 'utf8'), '{ "scripts": { "test": "node --test" } }\n');
    assert.equal(fs.readFileSync(path.join(world.ws, '.git/config'), 'utf8'), '[core]\n\tbare = false\n');
    for (const p of ['.vscode', 'AGENTS.md', 'sub/package.json']) assert.ok(!fs.existsSync(path.join(world.ws, p)), `${p} was undone`);
    assert.equal(fs.readlinkSync(path.join(world.ws, '.npmrc')), 'npmrc.real', 'the replaced link is put back');
    assert.match(r.notices?.join('\n') ?? '', /\.vscode.*AGENTS\.md|AGENTS\.md.*\.vscode/s);
    fs.writeFileSync(path.join(world.ws, 'src/a.js'), 'original\n');
  });

  for (const profile of ['read_only', 'test_run', 'none'] as const) {
    it(`${profile}: what a command started in the background, even in a new session, ends with it`, async () => {
      const tag = `${30 + Math.random()}`.slice(0, 8);
      const r = await run(`sleep ${tag} & setsid sleep ${tag} & (sleep ${tag} &) ; echo started`, profile);
      assert.match(output(r), /started/);
      await until(() => processesWith(`sleep ${tag}`).length === 0, `the sleeps (${tag}) to end`, 5000);
    });
  }

  for (const profile of ['test_run', 'none'] as const) {
    it(`${profile}: Keel killed with SIGKILL during \`sleep N; touch x\`: x never appears, nothing survives`, async function () {
      this.timeout(30_000);
      const marker = `x-${profile}-${randomBytes(3).toString('hex')}`;
      const tag = `${3 + Math.random()}`.slice(0, 8);
      const host = spawn(
        process.execPath,
        ['--import=tsx', path.join(ROOT, 'test/support/command-host.ts'), world.ws, profile, `echo started; sleep ${tag}; touch ${marker}`],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, HOME: world.home } },
      );
      await new Promise<void>((resolve, reject) => {
        host.stdout.on('data', (d) => String(d).includes('running') && resolve());
        host.on('exit', (code) => reject(new Error(`the host exited early (${code})`)));
      });
      host.kill('SIGKILL');
      await until(() => processesWith(`sleep ${tag}`).length === 0, 'the command to end with its host', 5000);
      await new Promise((r) => setTimeout(r, Number(tag) * 1000 + 500));
      assert.ok(!fs.existsSync(path.join(world.ws, marker)), `${marker} appeared after Keel was killed`);
    });
  }

  it('Keel killed with SIGKILL while bwrap is still starting: the command never runs', async function () {
    this.timeout(30_000);
    const marker = `x-starting-${randomBytes(3).toString('hex')}`;
    const host = spawn(
      process.execPath,
      ['--import=tsx', path.join(ROOT, 'test/support/command-host.ts'), world.ws, 'test_run', `touch ${marker}`, 'slow-start'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, HOME: world.home } },
    );
    await new Promise<void>((resolve, reject) => {
      host.stdout.on('data', (d) => String(d).includes('running') && resolve());
      host.on('exit', (code) => reject(new Error(`the host exited early (${code})`)));
    });
    host.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 2500));
    assert.ok(!fs.existsSync(path.join(world.ws, marker)), `${marker} appeared: the starter outlived Keel`);
  });

  it('says why there is no sandbox, once, when bubblewrap is missing or cannot run', async () => {
    for (const bwrapPath of [null, '/nonexistent/bwrap']) {
      const said: string[] = [];
      const none = await createNodeSandbox(world.ws, { rules: COMMAND_SANDBOX_RULES, bwrapPath, onUnavailable: (r) => said.push(r) });
      const status = none.status();
      assert.equal(status.type, 'unavailable');
      assert.equal(said.length, 1);
      assert.match(said[0]!, bwrapPath === null ? /not installed/ : /could not be run/);
      await assert.rejects(run('echo should-not-run', 'read_only', { sandbox: none }), /not available.*not run/);
    }
  });

  it('a sandbox that fails to start a command runs nothing, and is unavailable from then on', async () => {
    const said: string[] = [];
    const own = await createNodeSandbox(world.ws, { rules: COMMAND_SANDBOX_RULES, onUnavailable: (r) => said.push(r) });
    assert.equal(own.status().type, 'ready');
    // A folder outside the workspace does not exist in the sandbox: bwrap cannot start there.
    const outside = path.join(path.dirname(world.ws), 'outside');
    await assert.rejects(run('touch started-anyway', 'read_only', { sandbox: own, cwd: outside }), /sandbox could not start/);
    assert.ok(!fs.existsSync(path.join(outside, 'started-anyway')));
    assert.equal(own.status().type, 'unavailable');
    assert.equal(said.length, 1);
    assert.equal(sandbox.status().type, 'ready', 'another workspace keeps its own sandbox');
  });
});
