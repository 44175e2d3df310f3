// A stand-in for Keel that runs one command through the Node workspace and then waits to be
// killed: `node --import=tsx command-host.ts ROOT PROFILE LINE [slow-start]`. It prints "running"
// once the command has printed "started", so a test can kill it (kill -9) while the command runs.
// `slow-start` puts a stand-in for bwrap in the sandbox's place: it says "started" at once and
// runs the command a second later, unsandboxed and tied to nothing — bwrap in the moment before
// it has asked to die with Keel — so a test can kill Keel in that moment.
import { createNodeWorkspace } from '../../src/node/node-workspace.js';
import { runProcess } from '../../src/node/run-process.js';
import type { NodeSandbox } from '../../src/node/sandbox/node-sandbox.js';
import { COMMAND_SANDBOX_RULES } from '../../src/tools/index.js';
import { type ProcessOptions, SandboxProfileSchema } from '../../src/kernel/index.js';

const slowStarter: NodeSandbox = {
  status: () => ({ type: 'ready' }),
  failed: () => {},
  launch: (argv) => ({
    file: '/bin/sh',
    args: ['-c', 'echo started-starter; sleep 1; exec "$@"', 'starter', ...argv],
    afterRun: () => ({ undone: [] }),
  }),
};

async function main(): Promise<void> {
  const [root, profile, line, how] = process.argv.slice(2);
  let told = false;
  const opts: ProcessOptions = {
    timeoutMs: 600_000,
    signal: new AbortController().signal,
    maxCaptureChars: 1000,
    sandbox: SandboxProfileSchema.parse(profile),
    onOutput: (chunk) => {
      if (told || !chunk.includes('started')) return;
      told = true;
      process.stdout.write('running\n');
    },
  };
  if (how === 'slow-start') {
    await runProcess(line!, root!, opts, { sandbox: slowStarter });
    return;
  }
  const ws = await createNodeWorkspace(root!, { sandbox: { rules: COMMAND_SANDBOX_RULES } });
  await ws.runProcess(line!, opts);
}

void main();
