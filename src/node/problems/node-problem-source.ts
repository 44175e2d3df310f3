// The headless ProblemSource: the project's own checkers (tsc, shellcheck) run through the
// workspace's runProcess in the read-only sandbox, each capped in time. What cannot be checked
// is said once per task (a missing checker, no sandbox; a file no checker here handles gets no
// report at all, as before); a checker that runs past its cap is said
// each time, since the edit's problems are then unknown.
import type { Diagnostic, ProblemSnapshot, ProblemSource, SnapshotOptions, Workspace } from '../../kernel/index.js';
import type { Checker } from './checker.js';
import { shellcheckChecker } from './shellcheck-checker.js';
import { tscChecker } from './tsc-checker.js';

export interface NodeProblemOptions {
  /** Each checker's cap; the default leaves a cold tsc of a mid-size project time to finish. */
  timeoutMs?: number;
  env?: Readonly<Record<string, string | undefined>>;
  /** The checkers to run; the default is tsc and shellcheck. */
  checkers?: readonly Checker[];
}

const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_OUTPUT_CHARS = 400_000;

export function createNodeProblemSource(ws: Workspace, options: NodeProblemOptions = {}): ProblemSource {
  const checkers = options.checkers ?? [tscChecker(ws.root), shellcheckChecker(options.env ?? process.env)];
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const said = new Set<string>();
  const lastWhole = new Map<string, Diagnostic[]>();
  const once = (notes: string[], note: string) => {
    if (said.has(note)) return;
    said.add(note);
    notes.push(note);
  };

  async function run(checker: Checker, files: readonly string[], o: SnapshotOptions, notes: string[]): Promise<Diagnostic[] | undefined> {
    if (checker.wholeProject && o.reuse && lastWhole.has(checker.name)) return lastWhole.get(checker.name);
    const result = await ws.runProcess(checker.commandLine(files), {
      timeoutMs,
      signal: o.signal,
      maxCaptureChars: MAX_OUTPUT_CHARS,
      sandbox: 'read_only',
    });
    if (result.timedOut) {
      notes.push(`${checker.name} did not finish within ${Math.round(timeoutMs / 1000)} s: the problems of this edit are unknown.`);
      return undefined;
    }
    if (result.cancelled) return undefined;
    const output = `${result.stdout.head}${result.stdout.tail}\n${result.stderr.head}${result.stderr.tail}`;
    const problems = checker.parse(output);
    if (result.exitCode !== 0 && problems.length === 0) {
      const first = output.trim().split('\n', 1)[0] ?? '';
      notes.push(`${checker.name} failed (exit ${result.exitCode ?? result.signal}): ${first.slice(0, 200)}`);
      return undefined;
    }
    if (checker.wholeProject) lastWhole.set(checker.name, problems);
    return problems;
  }

  return {
    async snapshot(files, o): Promise<ProblemSnapshot> {
      const snap: ProblemSnapshot = { problems: [], checkers: [], notes: [] };
      const asked = checkers.map((c) => ({ checker: c, files: files.filter((f) => c.handles(f)) })).filter((a) => a.files.length > 0);
      const sandbox = ws.sandbox?.status();
      for (const { checker, files: mine } of asked) {
        const missing = checker.missing();
        if (missing) {
          once(snap.notes, `No checker for ${mine.map(extension).filter(unique).join(', ')} files: ${missing}.`);
          continue;
        }
        if (sandbox?.type !== 'ready') {
          once(
            snap.notes,
            `Problems are not checked: the project's checker runs only in the OS sandbox, which is ${sandbox?.type === 'unavailable' ? `unavailable (${sandbox.reason})` : 'not set up'}.`,
          );
          continue;
        }
        const problems = await run(checker, mine, o, snap.notes);
        if (!problems) continue;
        snap.checkers.push(checker.name);
        snap.problems.push(...problems);
      }
      return snap;
    },
  };
}

function extension(file: string): string {
  const dot = file.lastIndexOf('.');
  return dot === -1 ? file : file.slice(dot);
}

const unique = <T>(v: T, i: number, all: readonly T[]) => all.indexOf(v) === i;
