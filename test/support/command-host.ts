// A stand-in for Keel that runs one command through the Node workspace and then waits to be
// killed: `node --import=tsx command-host.ts ROOT PROFILE LINE`. It prints "running" once the
// command has printed "started", so a test can kill it (kill -9) while the command runs.
import { createNodeWorkspace } from '../../src/node/node-workspace.js';
import { COMMAND_SANDBOX_RULES } from '../../src/tools/index.js';
import { SandboxProfileSchema } from '../../src/kernel/index.js';

async function main(): Promise<void> {
  const [root, profile, line] = process.argv.slice(2);
  const ws = await createNodeWorkspace(root!, { sandbox: { rules: COMMAND_SANDBOX_RULES } });
  let told = false;
  await ws.runProcess(line!, {
    timeoutMs: 600_000,
    signal: new AbortController().signal,
    maxCaptureChars: 1000,
    sandbox: SandboxProfileSchema.parse(profile),
    onOutput: (chunk) => {
      if (told || !chunk.includes('started')) return;
      told = true;
      process.stdout.write('running\n');
    },
  });
}

void main();
