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

/**
 * Which way a command ran, told from its printenv output. Inside the OS sandbox TMPDIR is the
 * sandbox's private /tmp; outside it a command inherits Keel's TMPDIR, which a test sets with
 * `outsideTmp()` to a folder of its own. (Every command now has a keeper, sandboxed or not, so
 * the keeper's KEEL_COMMAND_ID marker no longer tells the two apart.)
 */
export function outsideTmp(dir: string): { TMPDIR: string } {
  return { TMPDIR: dir };
}

export function ranHow(printed: string, outside: { TMPDIR: string }): 'sandbox' | 'unsandboxed' | 'not run' {
  if (!printed.includes('PATH=')) return 'not run';
  if (printed.includes(`TMPDIR=${outside.TMPDIR}`)) return 'unsandboxed';
  if (/TMPDIR=\/tmp(\\n|\\"|"|\n|$)/.test(printed)) return 'sandbox';
  throw new Error(`cannot tell how the command ran: TMPDIR is neither /tmp nor ${outside.TMPDIR}`);
}
