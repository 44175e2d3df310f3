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
 * Which way a command ran, told from its printenv output. Every command has a keeper, whose
 * KEEL_COMMAND_ID marker the command inherits — but inside the OS sandbox bwrap unsets it (the
 * pid namespace ends what the command started). TMPDIR no longer tells them apart: inside the
 * sandbox it is the user's too (a private, empty folder at that path). A test still gives Keel a
 * TMPDIR of its own with `outsideTmp()`, so nothing it runs unsandboxed writes the system's.
 */
export function outsideTmp(dir: string): { TMPDIR: string } {
  return { TMPDIR: dir };
}

export function ranHow(printed: string, _outside: { TMPDIR: string }): 'sandbox' | 'unsandboxed' | 'not run' {
  if (!printed.includes('PATH=')) return 'not run';
  return printed.includes('KEEL_COMMAND_ID=') ? 'unsandboxed' : 'sandbox';
}
