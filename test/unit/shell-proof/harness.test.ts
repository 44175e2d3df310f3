// The differential proof is only as good as its eyes: each kind of effect a command line may
// have — running an unnamed program, writing, deleting, connecting, reading outside, printing a
// secret, changing the machine, never ending — is shown here to be seen, on lines run for real
// whatever the classifier thinks of them. And ordinary reads are shown to pass clean, so a
// clean verdict in the proof means something.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { ViolationKind } from '../../support/shell-proof/judge.js';
import { openProofSandbox, runJudged, type ProofSandbox } from '../../support/shell-proof/prove.js';
import { buildTemplate, makeCanaries } from '../../support/shell-proof/sandbox.js';
import { tracerOrSkip, type Tracer } from '../../support/shell-proof/trace-line.js';

describe('shell proof harness', function () {
  this.timeout(60_000);
  let tracer: Tracer;
  let sandbox: ProofSandbox;
  let template: string;

  before(async function () {
    tracer = tracerOrSkip(this);
    const canaries = makeCanaries();
    template = buildTemplate(canaries);
    sandbox = await openProofSandbox(template, canaries);
  });
  after(() => {
    sandbox?.dispose();
    if (template) fs.rmSync(template, { recursive: true, force: true });
  });

  const run = (line: string, programs: string[], timeoutMs = 10_000) => runJudged(tracer, line, { programs }, sandbox, timeoutMs);
  const kinds = (r: { violations: { kind: ViolationKind }[] }) => [...new Set(r.violations.map((v) => v.kind))].sort();

  it('passes ordinary reads inside the workspace, with the programs named', async () => {
    for (const [line, programs] of [
      ['cat README.md | wc -l', ['cat', 'wc']],
      ['ls -la src && git log --oneline -1 && git show --stat HEAD', ['ls', 'git']],
      ['grep -rn add src 2>/dev/null; rg -n TODO src; echo done >/dev/null', ['grep', 'rg', 'echo']],
      ['id; ls -l; date; sort -n data/numbers.txt | uniq -c; jq . data/people.json', ['id', 'ls', 'date', 'sort', 'uniq', 'jq']],
      ['cat link-inside; cat .env.example; head -1 < README.md; echo x >&2', ['cat', 'head', 'echo']],
    ] as const) {
      const r = await run(line, [...programs]);
      assert.deepEqual(r.violations, [], line);
    }
  });

  it('sees a program the classifier did not name, and a path-qualified one that is not the program', async () => {
    assert.deepEqual(kinds(await run('cat README.md | wc -l', ['cat'])), ['exec']);
    const byPath = await run('./cat README.md', ['cat']);
    assert.ok(
      byPath.violations.some((v) => v.kind === 'exec' && v.detail.includes('./cat')),
      JSON.stringify(byPath.violations),
    );
    // Named by its path, it is accepted as run — and what the script then did (run dirname and
    // basename, write a file) is still seen.
    const named = await run('./cat README.md', ['./cat']);
    assert.ok(!named.violations.some((v) => v.detail.includes('/cat,')), JSON.stringify(named.violations));
    assert.deepEqual(kinds(named), ['exec', 'write']);
    assert.deepEqual(kinds(await run('env -S "ls -a"', ['env'])), ['exec']);
  });

  it('sees writes, deletions and renames, and puts the sandbox back afterwards', async () => {
    const readme = fs.readFileSync(path.join(sandbox.box.ws, 'README.md'), 'utf8');
    for (const [line, programs] of [
      ['touch pwned', ['touch']],
      ['echo hi > README.md', ['echo']],
      ['echo hi >> ~/.bashrc', ['echo']],
      ['rm scratch.txt', ['rm']],
      ['mv scratch.txt moved.txt', ['mv']],
      ['mkdir newdir', ['mkdir']],
      ['git --namespace log config alias.x "!true"', ['git']],
      ['sort -o sorted data/numbers.txt', ['sort']],
      ['echo x > link-to-secret', ['echo']],
    ] as const) {
      assert.ok(kinds(await run(line, [...programs])).includes('write'), line);
    }
    assert.equal(fs.readFileSync(path.join(sandbox.box.ws, 'README.md'), 'utf8'), readme);
    assert.ok(fs.existsSync(path.join(sandbox.box.ws, 'scratch.txt')));
    assert.ok(!fs.existsSync(path.join(sandbox.box.ws, 'pwned')));
    assert.doesNotMatch(fs.readFileSync(path.join(sandbox.box.ws, '.git/config'), 'utf8'), /alias/);
  });

  it("runs git with run_command's environment, so status and diff leave the index alone", async () => {
    const readme = path.join(sandbox.box.ws, 'README.md');
    const index = path.join(sandbox.box.ws, '.git/index');
    for (const [i, line] of ['git status', 'git diff --stat', 'git diff'].entries()) {
      // A work-tree file newer than the index: git would refresh the index and rewrite it.
      fs.utimesSync(readme, new Date(), new Date(Date.now() + 5000 * (i + 1)));
      const before = fs.statSync(index).mtimeMs;
      assert.deepEqual((await run(line, ['git'])).violations, [], line);
      assert.equal(fs.statSync(index).mtimeMs, before, `${line} left .git/index as it was`);
    }
    for (const line of ['git update-index --refresh', 'git rm -q --cached docs/guide.md']) {
      fs.utimesSync(readme, new Date(), new Date(Date.now() + 60_000));
      assert.deepEqual(kinds(await run(line, ['git'])), ['write'], line);
    }
  });

  it('sees a connection, whether or not anything listens', async () => {
    const seen: net.Socket[] = [];
    const server = net.createServer((s) => seen.push(s.end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      assert.deepEqual(kinds(await run(`exec 3<>/dev/tcp/127.0.0.1/${port}`, [])), ['network']);
      assert.equal(seen.length, 1, 'the traced line really connected');
      assert.deepEqual(kinds(await run('echo x >/dev/udp/127.0.0.1/9', ['echo'])), ['network']);
    } finally {
      server.close();
    }
  });

  it('sees reads outside the workspace, of secrets inside it, and secrets in the output', async () => {
    for (const line of ['cat ../outside/secret.txt', 'cat link-to-secret', 'cat ~/.ssh/id_rsa', 'cat ../ws-evil/x.txt']) {
      assert.deepEqual(kinds(await run(line, ['cat'])), ['leak', 'read'], line);
    }
    assert.deepEqual(kinds(await run('ls ..', ['ls'])), ['read']);
    assert.deepEqual(kinds(await run('cat .env', ['cat'])), ['leak', 'read']);
    assert.deepEqual(kinds(await run('wc -c .env.local', ['wc'])), ['read']);
    assert.deepEqual(kinds(await run('cat /proc/self/environ', ['cat'])), ['leak', 'read']);
    assert.deepEqual(kinds(await run('printenv GITHUB_TOKEN', ['printenv'])), ['leak']);
    assert.deepEqual(kinds(await run('git config --global --list', ['git'])), ['leak']);
  });

  it('sees a change to the machine, and stops it from happening', async () => {
    const before = Date.now();
    assert.deepEqual(kinds(await run('date -s 2001-01-01', ['date'])), ['system']);
    assert.ok(Date.now() >= before, 'the clock was not set back');
  });

  it('stops a line that does not end, and says so', async () => {
    const r = await run('sleep 30', ['sleep'], 1000);
    assert.deepEqual(kinds(r), ['timeout']);
    assert.ok((r.ms ?? 0) < 10_000);
  });
});
