// The OS sandbox for tests: the real bubblewrap, or a skip — outside CI a machine without it
// skips with a note; in CI (CI=true) that is a failure, since `npm test` installs bubblewrap.
import { createNodeSandbox, type NodeSandbox } from '../../src/node/sandbox/node-sandbox.js';
import { COMMAND_SANDBOX_RULES } from '../../src/tools/index.js';

export async function sandboxOrSkip(ctx: Mocha.Context, root: string): Promise<NodeSandbox> {
  const sandbox = await createNodeSandbox(root, { rules: COMMAND_SANDBOX_RULES });
  const status = sandbox.status();
  if (status.type === 'ready') return sandbox;
  if (process.env.CI) throw new Error(`the sandbox tests cannot run: ${status.reason}`);
  console.log(`      (skipped: ${status.reason})`);
  ctx.skip();
}
