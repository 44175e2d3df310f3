// The report's first line: which interpreter or tool runs the tests, and its version, asked of
// the same program the command starts (`node --version` for npm and the JS runners, the venv's
// Python, `go version`, `cargo --version`); and a warning when the project asks for another Node.
// A version asked is kept a few minutes per workspace and profile: a probe in the sandbox costs
// a second sandbox start, which a run of a fast suite would otherwise pay every time.
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

/** How long a version asked stays known. */
const VERSION_TTL_MS = 5 * 60_000;
const versions = new Map<string, { at: number; version: Promise<string | undefined> }>();

function ask(probe: string, ctx: ToolContext): Promise<string | undefined> {
  const key = `${ctx.workspace.root}\0${ctx.sandbox ?? 'none'}\0${probe}`;
  const known = versions.get(key);
  if (known && Date.now() - known.at < VERSION_TTL_MS) return known.version;
  const version = askNow(probe, ctx);
  versions.set(key, { at: Date.now(), version });
  // An unknown version is asked again next time.
  void version.then((v) => v === undefined && versions.delete(key));
  return version;
}

async function askNow(probe: string, ctx: ToolContext): Promise<string | undefined> {
  try {
    // Sandboxed when the tests are (the probe starts the program the test command starts), but
    // read-only: it writes nothing, so it needs no scan of protected paths, and it runs beside the tests.
    const sandbox = ctx.sandbox === 'test_run' ? 'read_only' : ctx.sandbox;
    const r = await ctx.workspace.runProcess(probe, {
      timeoutMs: PROBE_TIMEOUT_MS,
      signal: ctx.signal,
      maxCaptureChars: 2000,
      ...(sandbox ? { sandbox } : {}),
    });
    if (r.exitCode !== 0) return undefined;
    const text = `${r.stdout.head}\n${r.stderr.head}`.trim().split('\n')[0]?.trim();
    return text?.match(/v?\d+\.\d+(?:\.\d+)?\S*/)?.[0];
  } catch {
    return undefined;
  }
}
