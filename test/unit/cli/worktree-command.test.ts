// keel worktree at the person's end, in process with real git: apply's refusal when the main
// folder changed the same lines (exit 1, the file named, both sides intact, --merge offered),
// discard asking once at a terminal (no keeps everything, yes removes), an unknown name, and a
// folder that is not a repository — each one line, never a stack trace.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { InputError } from '../../../src/cli/args.js';
import { runWorktreeCommand } from '../../../src/cli/worktree-command.js';
import { createSession } from '../../../src/node/worktrees/index.js';
import { scratchDir } from '../../support/scratch.js';
import { gitFixture, gitWorktreePaths } from '../node/worktrees/git-fixture.js';

function io(env: NodeJS.ProcessEnv, cwd: string, answer?: string) {
  const stdin = Object.assign(new PassThrough(), { isTTY: answer !== undefined });
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => {
    out += d;
    if (answer !== undefined && String(d).includes('[y/N]')) stdin.write(`${answer}\n`);
  });
  return { io: { stdin, stdout, cwd, env }, out: () => out };
}

async function session() {
  const f = await gitFixture();
  const { record } = await createSession(f.repo, f.layout, { task: 't', caps: { usd: 1.5 }, name: 'fix' });
  fs.writeFileSync(path.join(record.path, 'a.txt'), 'one\nTWO\nthree\n');
  return { f, record };
}

describe('keel worktree (in process)', function () {
  this.timeout(30_000);

  it('apply refuses a change to the same lines: exit 1, the file named, both sides intact', async () => {
    const { f, record } = await session();
    f.write('a.txt', 'one\nmine\nthree\n');
    const t = io(f.env, f.top);
    assert.equal(await runWorktreeCommand(['apply', 'fix'], t.io), 1);
    assert.match(t.out(), /^Not applied: the main folder changed the same lines in a\.txt/m);
    assert.match(t.out(), /keel worktree apply fix --merge/);
    assert.equal(f.read('a.txt'), 'one\nmine\nthree\n');
    assert.equal(fs.readFileSync(path.join(record.path, 'a.txt'), 'utf8'), 'one\nTWO\nthree\n');
  });

  it('list shows the cap', async () => {
    const { f } = await session();
    const t = io(f.env, f.top);
    await runWorktreeCommand(['list'], t.io);
    assert.equal(t.out(), 'fix  keel/fix  created  1 file changed  $0 of $1.50 cap\n');
  });

  it('discard asks once at a terminal: no keeps it, yes removes worktree and branch', async () => {
    const { f } = await session();
    const no = io(f.env, f.top, 'n');
    assert.equal(await runWorktreeCommand(['discard', 'fix'], no.io), 0);
    assert.equal((no.out().match(/\[y\/N\]/g) ?? []).length, 1);
    assert.match(no.out(), /Kept\./);
    assert.equal(gitWorktreePaths(f).length, 1);
    const yes = io(f.env, f.top, 'y');
    assert.equal(await runWorktreeCommand(['discard', 'fix'], yes.io), 0);
    assert.deepEqual(gitWorktreePaths(f), []);
    assert.equal(f.git('branch', '--list', 'keel/*'), '');
  });

  it('an unknown or malformed name, and a folder outside git, are one-line input errors', async () => {
    const { f } = await session();
    for (const name of ['nope', '../../etc'])
      await assert.rejects(
        runWorktreeCommand(['diff', name], io(f.env, f.top).io),
        (e: Error) => e instanceof InputError && /no session named/.test(e.message),
      );
    const outside = scratchDir('wt-cmd-nogit');
    await assert.rejects(
      runWorktreeCommand(['list'], io(f.env, outside).io),
      (e: Error) => e instanceof InputError && /not in a git repository/.test(e.message),
    );
  });
});
