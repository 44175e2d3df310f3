// A worktree session's linked dependencies inside the real OS sandbox: with the main folder's
// folder given as a read-only folder, a test run in the worktree reads through the link and
// cannot write through it; without it (the yardstick) the link leads nowhere in the sandbox.
// bower_components, since the toolchain view already binds a linked node_modules' target.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ProcessResult } from '../../../../src/kernel/index.js';
import { runProcess } from '../../../../src/node/run-process.js';
import { createNodeSandbox, type NodeSandbox } from '../../../../src/node/sandbox/node-sandbox.js';
import { COMMAND_SANDBOX_RULES } from '../../../../src/tools/index.js';
import { sandboxOrSkip } from '../../../support/sandbox.js';
import { scratchDir } from '../../../support/scratch.js';

describe('worktree sessions: dependencies in the sandbox', function () {
  this.timeout(60_000);
  const root = fs.realpathSync(scratchDir('wt-sandbox'));
  const main = path.join(root, 'main');
  const tree = path.join(root, 'tree');
  const deps = path.join(main, 'bower_components');

  before(async function () {
    fs.mkdirSync(path.join(deps, 'pkg'), { recursive: true });
    fs.writeFileSync(path.join(deps, 'pkg', 'index.js'), 'dependency\n');
    fs.mkdirSync(tree);
    fs.symlinkSync(deps, path.join(tree, 'bower_components'), 'dir');
    await sandboxOrSkip(this, tree);
  });

  const run = (sandbox: NodeSandbox): Promise<ProcessResult> =>
    runProcess(
      'cat bower_components/pkg/index.js; echo changed > bower_components/pkg/index.js || echo refused',
      tree,
      { timeoutMs: 20_000, signal: new AbortController().signal, maxCaptureChars: 20_000, sandbox: 'test_run', env: { HOME: root } },
      { sandbox },
    );

  it('reads through the link and cannot write through it', async () => {
    const sandbox = await createNodeSandbox(tree, { rules: COMMAND_SANDBOX_RULES, readOnly: [deps] });
    const r = await run(sandbox);
    const text = r.combined.head + r.combined.tail;
    assert.match(text, /^dependency$/m);
    assert.match(text, /refused/);
    assert.equal(fs.readFileSync(path.join(deps, 'pkg', 'index.js'), 'utf8'), 'dependency\n');
  });

  it('yardstick: without the read-only folder the link leads nowhere in the sandbox', async () => {
    const sandbox = await createNodeSandbox(tree, { rules: COMMAND_SANDBOX_RULES });
    const text = ((r) => r.combined.head + r.combined.tail)(await run(sandbox));
    assert.doesNotMatch(text, /^dependency$/m);
  });
});
