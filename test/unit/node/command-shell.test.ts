// Commands run with one shell (bash without startup files, never $SHELL) and an environment
// that can neither change how that shell reads the line nor hand the model a provider key.
// Checked with the real bash: each attack is first shown to work on a plain `bash -c`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { secretDetector } from '../../../src/compose/index.js';
import { childEnvironment, commandShell, withheldCredentials } from '../../../src/node/command-shell.js';
import { createNodeWorkspace, type NodeWorkspace } from '../../../src/node/node-workspace.js';
import { createRunCommandTool, runCommandTool } from '../../../src/tools/run-command.js';

const HELD_SECRET = 'sk-from-secret-storage-0123456789';
const ENV_KEY = 'sk-ant-from-the-environment-abcdef';

/** Runs `body` with extra variables in Keel's own environment, then puts it back. */
async function withParentEnv(vars: Record<string, string>, body: () => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    await body();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('Node workspace: the shell and the child environment', function () {
  this.timeout(30_000);
  let dir: string;
  let ws: NodeWorkspace;
  const run = async (line: string) => {
    const r = await ws.runProcess(line, { timeoutMs: 10_000, signal: new AbortController().signal, maxCaptureChars: 100_000 });
    return r.stdout.head + r.stdout.tail;
  };

  before(async function () {
    if (!existsSync('/bin/bash') && !existsSync('/usr/bin/bash')) this.skip();
    dir = await mkdtemp(path.join(tmpdir(), 'keel-shell-'));
    ws = await createNodeWorkspace(dir, { withheldSecrets: async () => [HELD_SECRET] });
  });
  after(() => dir && rm(dir, { recursive: true, force: true }));

  it('runs bash without startup files, whatever $SHELL says', async () => {
    assert.equal(ws.shell?.name, 'bash');
    assert.deepEqual(ws.shell?.args, ['--noprofile', '--norc']);
    await withParentEnv({ SHELL: '/bin/false' }, async () => {
      assert.match(await run('echo "bash $BASH_VERSION"'), /^bash \d+\.\d+/);
    });
  });

  it('does not source the file BASH_ENV names', async () => {
    const marker = path.join(dir, 'sourced');
    const rc = path.join(dir, 'evil-rc.sh');
    await writeFile(rc, `touch '${marker}'\necho FROM_BASH_ENV\n`);
    const plain = spawnSync('bash', ['-c', 'echo hi'], { env: { ...process.env, BASH_ENV: rc }, encoding: 'utf8' });
    assert.match(plain.stdout, /FROM_BASH_ENV/, 'a plain bash -c does source it');
    await rm(marker, { force: true });
    await withParentEnv({ BASH_ENV: rc, ENV: rc }, async () => {
      assert.equal(await run('echo hi'), 'hi\n');
    });
    assert.equal(existsSync(marker), false);
  });

  it('does not apply exported bash functions or shell options from the environment', async () => {
    const fn = { 'BASH_FUNC_ls%%': '() {  echo HIJACKED; }' };
    const plain = spawnSync('bash', ['-c', 'ls /'], { env: { ...process.env, ...fn }, encoding: 'utf8' });
    assert.match(plain.stdout, /HIJACKED/, 'a plain bash -c does import it');
    await withParentEnv({ ...fn, SHELLOPTS: 'xtrace', CDPATH: '/', GLOBIGNORE: '*' }, async () => {
      await writeFile(path.join(dir, 'seen.txt'), '');
      const out = await run('ls; echo *.txt; cd etc 2>/dev/null && echo moved');
      assert.doesNotMatch(out, /HIJACKED|moved/);
      assert.match(out, /seen\.txt\nseen\.txt\n/);
    });
  });

  it('keeps provider keys and held secrets out of the child, under any name', async () => {
    const vars = {
      ANTHROPIC_API_KEY: ENV_KEY,
      OPENAI_API_KEY: 'sk-openai-from-the-environment-1234',
      COPY_OF_KEY: ENV_KEY,
      MY_TOKEN: HELD_SECRET,
      AUTH_HEADER: `Bearer ${HELD_SECRET}`,
      HARMLESS: 'still here',
    };
    await withParentEnv(vars, async () => {
      const out = await run('printenv');
      for (const leaked of [ENV_KEY, HELD_SECRET, 'sk-openai-from-the-environment-1234'])
        assert.ok(!out.includes(leaked), `${leaked.slice(0, 12)}… reached the child`);
      assert.match(out, /^HARMLESS=still here$/m);
      assert.equal(await run('printenv ANTHROPIC_API_KEY; echo "[$OPENAI_API_KEY]"'), '[]\n');
    });
  });

  it("a tool's own variables pass the same filter", () => {
    const env = childEnvironment({ PATH: '/bin' }, { CI: 'true', BASH_ENV: '/tmp/x', 'BASH_FUNC_cd%%': '() { :; }' }, { held: [] });
    assert.deepEqual(env, { PATH: '/bin', CI: 'true' });
  });

  it('falls back to /bin/sh without bash, and run_command says which shell', () => {
    assert.deepEqual(
      commandShell(() => false),
      { name: 'sh', path: '/bin/sh', args: [] },
    );
    assert.equal(commandShell((p) => p === '/usr/bin/bash').path, '/usr/bin/bash');
    assert.match(runCommandTool.description, /bash --noprofile --norc -c/);
    const sh = createRunCommandTool(commandShell(() => false)).description;
    assert.match(sh, /\/bin\/sh -c \(this machine has no bash\)/);
    assert.doesNotMatch(sh, /--norc/);
  });
});

describe('Node workspace: credentials in the environment stay out of commands', function () {
  this.timeout(30_000);
  const slack = ['xoxb', '123456789012', '1234567890123', 'AbCdEfGhIjKlMnOpQrStUvWx'].join('-');
  const CREDENTIALS: Record<string, string> = {
    GITHUB_TOKEN: 'gh-token-from-the-shell',
    AWS_SECRET_ACCESS_KEY: 'aws-secret-from-the-shell',
    NPM_TOKEN: 'npm-token-from-the-shell',
    DB_PASSWORD: 'hunter2',
    // Names that say nothing; the values are credentials.
    NOTIFY_WITH: slack,
    DATABASE_URL: 'postgres://app:s3cretPass@db.internal:5432/app',
  };
  const INNOCENT: Record<string, string> = {
    HARMLESS: 'still here',
    TOKENIZERS_PARALLELISM: 'false',
    PASSWORD_MIN_LENGTH: '12',
    CACHE_URL: 'redis://localhost:6379/0',
  };
  let dir: string;
  let passEnv: string[] = [];
  let ws: NodeWorkspace;
  const printenv = async () => {
    const r = await ws.runProcess('printenv', { timeoutMs: 10_000, signal: new AbortController().signal, maxCaptureChars: 200_000 });
    return r.stdout.head + r.stdout.tail;
  };

  before(async function () {
    if (!existsSync('/bin/bash') && !existsSync('/usr/bin/bash')) this.skip();
    dir = await mkdtemp(path.join(tmpdir(), 'keel-env-'));
    ws = await createNodeWorkspace(dir, { credentials: { detector: secretDetector(), passEnv: () => passEnv } });
  });
  after(() => dir && rm(dir, { recursive: true, force: true }));
  afterEach(() => {
    passEnv = [];
  });

  it('a command sees none of them, by name or by value, and the rest of the environment as it is', async () => {
    await withParentEnv({ ...CREDENTIALS, ...INNOCENT }, async () => {
      const out = await printenv();
      for (const [name, value] of Object.entries(CREDENTIALS)) {
        assert.ok(!out.includes(value), `${name}'s value reached the command`);
        assert.doesNotMatch(out, new RegExp(`^${name}=`, 'm'));
      }
      for (const [name, value] of Object.entries(INNOCENT)) assert.match(out, new RegExp(`^${name}=${value}$`, 'm'));
      assert.match(out, /^PATH=/m);
    });
  });

  it('passes exactly the names the user lists, never a provider key', async () => {
    await withParentEnv({ ...CREDENTIALS, ANTHROPIC_API_KEY: ENV_KEY }, async () => {
      passEnv = ['GITHUB_TOKEN', 'NOTIFY_WITH', 'ANTHROPIC_API_KEY'];
      const out = await printenv();
      assert.match(out, /^GITHUB_TOKEN=gh-token-from-the-shell$/m);
      assert.ok(out.includes(`NOTIFY_WITH=${slack}`));
      assert.ok(!out.includes('npm-token-from-the-shell'), 'an unlisted one stays out');
      assert.ok(!out.includes(ENV_KEY), 'Keel never passes its own key');
    });
  });

  it('names what it withholds (never the values), and withholds nothing without a detector', () => {
    const env = { ...CREDENTIALS, ...INNOCENT };
    const names = withheldCredentials(env, { held: [], credentials: secretDetector(), pass: ['DB_PASSWORD'] });
    assert.deepEqual(names, ['AWS_SECRET_ACCESS_KEY', 'DATABASE_URL', 'GITHUB_TOKEN', 'NOTIFY_WITH', 'NPM_TOKEN']);
    assert.equal(childEnvironment(env, undefined, { held: [] }).GITHUB_TOKEN, 'gh-token-from-the-shell');
  });
});
