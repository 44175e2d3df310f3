// A sandbox that gives each toolchain its own (issue 36 item 2), on the real bubblewrap: the
// installs and pinned versions in the home folder visible read-only, the caches a test run writes
// kept in Keel's own folder for the workspace — never the user's, which approved commands run
// from —, npm's user settings without their credentials, dependency folders the workspace links
// to outside it shown (or named when hidden), the files a runner writes as part of running
// neither undone nor reported, and the user's TMPDIR as the user set it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProcessResult, SandboxProfile } from '../../../src/kernel/index.js';
import { runProcess } from '../../../src/node/run-process.js';
import { createNodeSandbox, type NodeSandbox } from '../../../src/node/sandbox/node-sandbox.js';
import { COMMAND_SANDBOX_RULES } from '../../../src/tools/index.js';
import { sandboxOrSkip } from '../../support/sandbox.js';
import { scratchDir } from '../../support/scratch.js';

interface Place {
  root: string;
  ws: string;
  home: string;
  cache: string;
}

function place(files: Record<string, string> = {}): Place {
  const root = fs.realpathSync(scratchDir('toolchains'));
  const p = { root, ws: path.join(root, 'ws'), home: path.join(root, 'home'), cache: path.join(root, 'keel-cache') };
  for (const dir of [p.ws, p.home]) fs.mkdirSync(dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) put(root, rel, content);
  return p;
}

function put(root: string, rel: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
}

async function sandboxFor(ctx: Mocha.Context, p: Place): Promise<NodeSandbox> {
  await sandboxOrSkip(ctx, p.ws);
  return createNodeSandbox(p.ws, { rules: COMMAND_SANDBOX_RULES, cacheDir: p.cache });
}

function run(sandbox: NodeSandbox, p: Place, line: string, env: Record<string, string> = {}, profile: SandboxProfile = 'test_run') {
  return runProcess(
    line,
    p.ws,
    { timeoutMs: 120_000, signal: new AbortController().signal, maxCaptureChars: 50_000, sandbox: profile, env: { HOME: p.home, ...env } },
    { sandbox },
  );
}

const text = (r: ProcessResult) => r.combined.head + r.combined.tail;

function tree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: false }).map(String).sort();
}

describe('OS sandbox: each toolchain gets its own (issue 36 item 2)', function () {
  this.timeout(180_000);

  it("shows the home folder's pinned package managers read-only: pnpm's, corepack's", async function () {
    const p = place({
      'home/.local/share/pnpm/.tools/pnpm/9.12.0/bin/pnpm': 'pinned pnpm\n',
      'home/.cache/node/corepack/v1/yarn/4.1.0/yarn.js': 'pinned yarn\n',
    });
    const sandbox = await sandboxFor(this, p);
    const r = await run(
      sandbox,
      p,
      'cat ~/.local/share/pnpm/.tools/pnpm/9.12.0/bin/pnpm ~/.cache/node/corepack/v1/yarn/4.1.0/yarn.js; echo x > ~/.local/share/pnpm/new || echo read-only',
    );
    assert.match(text(r), /pinned pnpm\npinned yarn\n[\s\S]*read-only/);
    assert.ok(!fs.existsSync(path.join(p.home, '.local/share/pnpm/new')));
  });

  it("keeps Go's build cache between runs in Keel's folder for the workspace, and never writes the user's", async function () {
    if (spawnSync('go', ['version']).error) {
      if (process.env.CI) throw new Error('CI installs go (scripts/setup-e2e.sh)');
      this.skip();
    }
    const p = place({
      'ws/go.mod': 'module example.com/x\n\ngo 1.19\n',
      'ws/a/a.go': 'package a\n\nimport "strings"\n\nfunc Up(s string) string { return strings.ToUpper(s) }\n',
      'ws/a/a_test.go': 'package a\n\nimport "testing"\n\nfunc TestUp(t *testing.T) {\n\tif Up("x") != "X" {\n\t\tt.Fatal("no")\n\t}\n}\n',
      'home/.cache/go-build/README': "the user's own cache\n",
    });
    const sandbox = await sandboxFor(this, p);
    const first = await run(sandbox, p, 'go test ./...');
    assert.equal(first.exitCode, 0, text(first));
    const second = await run(sandbox, p, 'go test ./...');
    assert.match(text(second), /ok\s+example\.com\/x\/a\s+\(cached\)/, 'the second run found the first run in its cache');
    assert.deepEqual(tree(path.join(p.home, '.cache/go-build')), ['README'], "the user's cache is untouched");
    const kept = fs.readdirSync(p.cache).map((d) => path.join(p.cache, d, 'go-build'));
    assert.equal(kept.length, 1);
    assert.ok(tree(kept[0]!).length > 10, "Keel's cache holds the build");
  });

  it("jest's cache is kept between runs, at the path jest uses, in Keel's folder", async function () {
    const p = place({ 'ws/package.json': '{"name":"x"}' });
    const sandbox = await sandboxFor(this, p);
    const dir = `/tmp/jest_${(process.getuid?.() ?? 0).toString(36)}`;
    await run(sandbox, p, `mkdir -p ${dir} && echo warm > ${dir}/entry`);
    const again = await run(sandbox, p, `cat ${dir}/entry`);
    assert.equal(text(again).trim(), 'warm');
    assert.ok(!fs.existsSync(`${dir}/entry`) || fs.readFileSync(`${dir}/entry`, 'utf8') !== 'warm\n', 'not in the machine /tmp');
  });

  it("shows ~/.npmrc's settings without its credentials", async function () {
    const p = place({
      'home/.npmrc': [
        'registry=https://npm.example.test/',
        '//npm.example.test/:_authToken=SECRETTOKEN1',
        '_auth=SECRETBASIC2',
        'script-shell=/bin/bash',
        '@corp:registry=https://user:SECRETPASS3@corp.example.test/npm/',
        '',
      ].join('\n'),
    });
    const sandbox = await sandboxFor(this, p);
    const shown = text(await run(sandbox, p, 'cat ~/.npmrc'));
    assert.match(shown, /^registry=https:\/\/npm\.example\.test\/$/m);
    assert.match(shown, /^script-shell=\/bin\/bash$/m);
    assert.match(shown, /^@corp:registry=https:\/\/corp\.example\.test\/npm\/$/m);
    assert.doesNotMatch(shown, /SECRET/);
  });

  it("shows a node_modules the workspace links to outside it, and a monorepo's hoisted one; names a linked package it hides", async function () {
    const p = place({
      'deps/node_modules/dep/index.js': "module.exports = 'dep';\n",
      'mono/node_modules/hoisted/index.js': "module.exports = 'hoisted';\n",
      'mono/packages/web/package.json': '{"name":"web"}',
      'other-project/index.js': "module.exports = 'other';\n",
      'other-project/.env': 'TOKEN=1\n',
    });
    fs.symlinkSync(path.join(p.root, 'deps/node_modules'), path.join(p.ws, 'node_modules'));
    const sandbox = await sandboxFor(this, p);
    const linked = await run(sandbox, p, `node -e "console.log(require('dep'))"`);
    assert.equal(text(linked).trim(), 'dep');

    const web = path.join(p.root, 'mono/packages/web');
    const mono = await createNodeSandbox(web, { rules: COMMAND_SANDBOX_RULES, cacheDir: p.cache });
    const hoisted = await runProcess(
      `node -e "console.log(require('hoisted'))"`,
      web,
      { timeoutMs: 30_000, signal: new AbortController().signal, maxCaptureChars: 10_000, sandbox: 'test_run', env: { HOME: p.home } },
      { sandbox: mono },
    );
    assert.equal(text(hoisted).trim(), 'hoisted');

    const own = place({ 'ws/node_modules/real/index.js': '' });
    fs.symlinkSync(path.join(p.root, 'other-project'), path.join(own.ws, 'node_modules/mylib'));
    const s2 = await createNodeSandbox(own.ws, { rules: COMMAND_SANDBOX_RULES, cacheDir: own.cache });
    const hidden = await run(s2, own, `node -e "require('mylib')" 2>/dev/null || echo hidden`);
    assert.match(text(hidden), /hidden/);
    assert.deepEqual(hidden.notices, [
      `The sandbox hid node_modules/mylib: a link to ${path.join(p.root, 'other-project')}, outside the workspace.`,
    ]);
  });

  it('a link planted in node_modules (top level or under a scope) after a command is hidden from the next one', async function () {
    const p = place({ 'ws/node_modules/real/index.js': '', 'ws/node_modules/@team/kept/index.js': '', 'outside/index.js': '' });
    const sandbox = await sandboxFor(this, p);
    const first = await run(sandbox, p, 'true');
    assert.deepEqual(first.notices ?? [], []);
    const outside = path.join(p.root, 'outside');
    fs.symlinkSync(outside, path.join(p.ws, 'node_modules/planted'));
    fs.symlinkSync(outside, path.join(p.ws, 'node_modules/@team/planted'));
    const next = await run(
      sandbox,
      p,
      'for m in planted @team/planted; do test -e node_modules/$m/index.js && echo seen || echo hidden; done',
    );
    assert.equal(text(next), 'hidden\nhidden\n');
    assert.deepEqual([...(next.notices ?? [])].sort(), [
      `The sandbox hid node_modules/@team/planted: a link to ${outside}, outside the workspace.`,
      `The sandbox hid node_modules/planted: a link to ${outside}, outside the workspace.`,
    ]);
  });
  it("keeps the files a runner writes as part of running: a first Cargo.lock, pytest's .pytest_cache/.gitignore — not undone, not reported", async function () {
    const p = place({ 'ws/Cargo.toml': '[package]\nname = "x"\nversion = "0.1.0"\n', 'ws/sub/Cargo.lock': 'old\n' });
    const sandbox = await sandboxFor(this, p);
    const r = await run(
      sandbox,
      p,
      'echo lock > Cargo.lock && mkdir -p .pytest_cache && echo "*" > .pytest_cache/.gitignore && echo new > sub/Cargo.lock || true',
    );
    assert.equal(fs.readFileSync(path.join(p.ws, 'Cargo.lock'), 'utf8'), 'lock\n');
    assert.equal(fs.readFileSync(path.join(p.ws, '.pytest_cache/.gitignore'), 'utf8'), '*\n');
    assert.equal(fs.readFileSync(path.join(p.ws, 'sub/Cargo.lock'), 'utf8'), 'old\n', 'an existing lock file stays read-only');
    assert.equal(r.notices, undefined, "nothing reported as the run's doing");
    const stray = await run(sandbox, p, 'echo x > other/Cargo.lock 2>/dev/null; mkdir -p lib && echo x > lib/Cargo.lock');
    assert.ok(!fs.existsSync(path.join(p.ws, 'lib/Cargo.lock')), 'a Cargo.lock with no Cargo.toml beside it is undone');
    assert.match(stray.notices?.join('\n') ?? '', /lib\/Cargo\.lock/);
  });

  it('sees TMPDIR as the user set it: a private, empty folder there, thrown away', async function () {
    const p = place();
    const tmp = path.join(p.root, 'my-tmp');
    fs.mkdirSync(tmp);
    fs.writeFileSync(path.join(tmp, 'host-file'), 'x');
    const sandbox = await sandboxFor(this, p);
    const r = await run(sandbox, p, 'echo "$TMPDIR"; ls -A "$TMPDIR"; echo made > "$TMPDIR/inside" && echo wrote', { TMPDIR: tmp });
    assert.equal(text(r), `${tmp}\nwrote\n`);
    assert.deepEqual(fs.readdirSync(tmp), ['host-file']);
  });
});
