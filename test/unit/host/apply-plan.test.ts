import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { composePolicy } from '../../../src/compose/index.js';
import { planApply, writeApproved } from '../../../src/host/edits/apply-plan.js';
import { type TempWorkspace, tempWorkspace } from '../tools/helpers.js';

describe('Apply to file… (the plan before the diff, the write after Accept)', () => {
  let t: TempWorkspace;
  const settings = { autoApprove: [], commandsAllow: [], commandsDeny: [] } as unknown as Parameters<typeof composePolicy>[0];
  const deps = () => ({ workspace: t.ws, policy: composePolicy(settings, true) });
  const read = (rel: string) => readFile(path.join(t.dir, rel), 'utf8');

  beforeEach(async () => {
    t = await tempWorkspace({ 'src/a.ts': 'const a = 1;\r\n', '.env': 'KEY=1\n', 'src/dir/x.ts': 'x' });
  });
  afterEach(() => t.cleanup());

  it('refuses a path outside the workspace, exactly as write_file is refused', async () => {
    for (const target of ['../evil.ts', '/etc/passwd']) {
      const review = await planApply(target, 'x', deps());
      assert.equal(review.kind, 'refused', target);
      if (review.kind === 'refused') assert.match(review.reason, /outside the workspace/);
    }
  });

  it('asks with the protected-path reason for a protected file', async () => {
    const review = await planApply('.env', 'KEY=2\n', deps());
    assert.equal(review.kind, 'review');
    if (review.kind === 'review') assert.match(review.reason ?? '', /always asks/);
    assert.equal(await read('.env'), 'KEY=1\n', 'planning writes nothing');
  });

  it('plans a whole-file replace keeping the line endings, and writes only when approved', async () => {
    const review = await planApply('src/a.ts', 'const a = 2;\n', deps());
    assert.equal(review.kind, 'review');
    if (review.kind !== 'review') return;
    assert.equal(review.newText, 'const a = 2;\r\n');
    assert.equal(await read('src/a.ts'), 'const a = 1;\r\n');
    assert.deepEqual(await writeApproved(review, t.ws), { ok: true, rel: 'src/a.ts' });
    assert.equal(await read('src/a.ts'), 'const a = 2;\r\n');
  });

  it('writes nothing when the file changed while the diff was open', async () => {
    const review = await planApply('src/a.ts', 'const a = 2;\n', deps());
    assert.equal(review.kind, 'review');
    if (review.kind !== 'review') return;
    await writeFile(path.join(t.dir, 'src/a.ts'), 'someone else\n');
    const outcome = await writeApproved(review, t.ws);
    assert.equal(outcome.ok, false);
    assert.equal(await read('src/a.ts'), 'someone else\n');
  });

  it('creates a new file, says when nothing changes, and refuses a folder', async () => {
    const created = await planApply('src/new.ts', 'n\n', deps());
    assert.equal(created.kind === 'review' && created.created, true);
    if (created.kind === 'review') await writeApproved(created, t.ws);
    assert.equal(await read('src/new.ts'), 'n\n');
    assert.equal((await planApply('src/new.ts', 'n\n', deps())).kind, 'unchanged');
    assert.equal((await planApply('src/dir', 'n\n', deps())).kind, 'refused');
  });
});
