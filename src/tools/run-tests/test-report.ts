// The structured result of a test run, and helpers the output parsers share.

export type RunnerName = 'mocha' | 'jest' | 'vitest' | 'node-test' | 'tap' | 'pytest' | 'go-test' | 'cargo-test';

export interface TestFailure {
  /** Full test name, suites joined with " > ". */
  name: string;
  /** Workspace-relative where possible. */
  file?: string;
  line?: number;
  message: string;
}

export interface TestReport {
  runner: RunnerName;
  passed: number;
  failed: number;
  skipped: number;
  failures: TestFailure[];
}

export interface OutputParser {
  runner: RunnerName;
  /** True when the output looks like this runner's. */
  detect(output: string): boolean;
  parse(output: string, root: string): TestReport;
}

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

export function stripAnsi(s: string): string {
  return s.replace(ANSI, '');
}

/** "2 failed, 1 skipped, 3 passed" (any order, any separators) → counts. */
export function countsFrom(text: string): { passed: number; failed: number; skipped: number } {
  const n = (re: RegExp) => [...text.matchAll(re)].reduce((sum, m) => sum + Number(m[1]), 0);
  return {
    passed: n(/(\d+) (?:passed|passing)/g),
    failed: n(/(\d+) (?:failed|failing|errors?)\b/g),
    skipped: n(/(\d+) (?:skipped|pending|todo|ignored|xfailed)\b/g),
  };
}

const FRAME = /(?:\(|\s|^)((?:file:\/\/)?(?:[A-Za-z]:)?[^\s():]+):(\d+)(?::\d+)?\)?/;

/** A source location from a stack frame or "file:line" text, made relative to root. */
export function locationIn(text: string, root: string): { file: string; line: number } | undefined {
  for (const raw of text.split('\n')) {
    if (/node:internal|node_modules|\(node:|^\s*at (async )?node:/.test(raw)) continue;
    const m = FRAME.exec(raw);
    if (m && /\.[A-Za-z]+$/.test(m[1]!)) return { file: relativeTo(m[1]!, root), line: Number(m[2]) };
  }
  return undefined;
}

export function relativeTo(file: string, root: string): string {
  let f = file.replace(/^file:\/\//, '');
  if (root && f.startsWith(root.endsWith('/') ? root : root + '/')) f = f.slice(root.replace(/\/$/, '').length + 1);
  return f.replace(/^\.\//, '');
}

/** Message lines: trimmed, up to the stack trace, blank runs collapsed, capped. */
export function messageOf(lines: readonly string[], maxLines = 8): string {
  const out: string[] = [];
  for (const l of lines) {
    const t = l.trim();
    if (/^at\s/.test(t)) {
      if (out.some((x) => x !== '')) break;
      continue;
    }
    if (t === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(t);
    if (out.length >= maxLines) break;
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
