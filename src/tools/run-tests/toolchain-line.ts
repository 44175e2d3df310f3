// The report's first line: which interpreter or tool runs the tests, and its version, asked of
// the same program the command starts (`node --version` for npm and the JS runners, the venv's
// Python, `go version`, `cargo --version`); and a warning when the project asks for another Node.
import type { ToolContext } from '../../kernel/index.js';
import type { DetectedCommand } from './detect-command.js';
import { nodeSatisfies } from './toolchain.js';

const PROBE_TIMEOUT_MS = 10_000;
const NODE_FRONTS = new Set(['node', 'npm', 'npx', 'pnpm', 'yarn', 'mocha', 'jest', 'vitest', 'ava', 'tap', 'uvu', 'jasmine', 'tsc']);

/** The program to ask for its version, for the command's first word; undefined when unknown. */
function probeFor(command: string): { label: string; probe: string } | undefined {
  const words = command.trim().split(/\s+/);
  const first = words[0] ?? '';
  if (/(?:^|\/)python[\d.]*$/.test(first))
    return { label: first === 'python3' ? 'Python' : `Python (${first})`, probe: `${first} --version` };
  if (['uv', 'poetry', 'pipenv'].includes(first) && words[1] === 'run') {
    // The same `run` options as the tests (uv's --offline), then the environment's python.
    const options = words.slice(2).filter((w, i, all) => w.startsWith('-') && all.slice(0, i).every((x) => x.startsWith('-')));
    return { label: `Python (${first} run)`, probe: [first, 'run', ...options, 'python', '--version'].join(' ') };
  }
  if (first === 'pytest' || first === 'py.test') return { label: 'Python', probe: 'python3 --version' };
  if (NODE_FRONTS.has(first)) return { label: first === 'node' ? 'Node' : `Node (${first})`, probe: 'node --version' };
  if (first === 'go') return { label: 'Go', probe: 'go version' };
  if (first === 'cargo') return { label: 'Rust', probe: 'cargo --version' };
  if (first === 'bun') return { label: 'Bun', probe: 'bun --version' };
  if (first === 'deno') return { label: 'Deno', probe: 'deno --version' };
  return undefined;
}

export async function toolchainLine(command: string, detected: DetectedCommand | undefined, ctx: ToolContext): Promise<string | undefined> {
  const which = probeFor(command);
  if (!which) return undefined;
  const version = await ask(which.probe, ctx);
  let line = `Toolchain: ${which.label} ${version ?? '(version unknown)'}`;
  const wanted = detected?.toolchain?.nodeWanted;
  if (wanted && which.label.startsWith('Node') && version) {
    const ok = nodeSatisfies(version, wanted.version);
    if (ok === false) line += ` — the project asks for Node ${wanted.version} (${wanted.from}); results may differ from the project's`;
  }
  if (detected?.because.includes('Python from')) line += ` — ${detected.because.slice(detected.because.indexOf('Python from'))}`;
  return line;
}

async function ask(probe: string, ctx: ToolContext): Promise<string | undefined> {
  try {
    // The same profile as the tests: the probe starts the program the test command starts.
    const r = await ctx.workspace.runProcess(probe, {
      timeoutMs: PROBE_TIMEOUT_MS,
      signal: ctx.signal,
      maxCaptureChars: 2000,
      ...(ctx.sandbox ? { sandbox: ctx.sandbox } : {}),
    });
    if (r.exitCode !== 0) return undefined;
    const text = `${r.stdout.head}\n${r.stderr.head}`.trim().split('\n')[0]?.trim();
    return text?.match(/v?\d+\.\d+(?:\.\d+)?\S*/)?.[0];
  } catch {
    return undefined;
  }
}
