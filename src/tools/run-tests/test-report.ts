// The structured result of a test run, and the small helpers every output parser shares.

type RunnerName =
  | 'mocha'
  | 'jest'
  | 'vitest'
  | 'node-test'
  | 'tap'
  | 'node-tap'
  | 'ava'
  | 'uvu'
  | 'jasmine'
  | 'bun'
  | 'deno'
  | 'pytest'
  | 'unittest'
  | 'go-test'
  | 'cargo-test'
  | 'catch2'
  | 'gtest'
  | 'ctest'
  /** JUnit XML reports the runner wrote (Maven's surefire, Gradle). */
  | 'junit'
  /** Output no runner's format matched, ending in a JavaScript error and its stack. */
  | 'js-error'
  /** Steps a test script runs first: their errors stop it before any test. */
  | 'tsc'
  | 'eslint'
  | 'xo'
  /** A compiler's errors (gcc, clang, javac) that stopped the build before any test. */
  | 'compiler';

/** A test that ran and failed, or a file/package that could not be loaded or compiled. */
type FailureKind = 'test_failure' | 'load_error';

export interface TestFailure {
  kind: FailureKind;
  /** Full test name, suites joined with " > "; for a load error, the file or package that failed. */
  name: string;
  /** Workspace-relative where possible. */
  file?: string;
  line?: number;
  /** 1-based, when the runner gives it. */
  column?: number;
  message: string;
  /** The source lines the runner printed around a load error (code frame), as printed. */
  context?: string;
  /** A load error in a module that test files import: the test files it stopped from loading. */
  stopped?: string[];
  /** A syntax error the runner printed without its line, for locate-syntax-error.ts to place. */
  unplaced?: UnplacedSyntaxError;
  /** The package a monorepo's task runner ran it in (turbo's `web:test: ` prefix). */
  package?: string;
}

/**
 * What is known of a syntax error the runner could not place: V8's message (ava, uvu, jasmine
 * and mocha print only that for an ES module), or the file the runner's own parser rejected
 * (vite's import analysis names it but says 1:0).
 */
type UnplacedSyntaxError = { type: 'v8_message'; message: string } | { type: 'rejected_file'; file: string };

export interface TestReport {
  runner: RunnerName;
  /** Absent when the runner does not list passing tests (go test without -v). */
  passed?: number;
  /** Failed tests; load errors are not counted here. */
  failed: number;
  skipped: number;
  /** Load errors first, then test failures, in output order. */
  failures: TestFailure[];
  /** go test without -v counts packages, not tests. */
  packages?: { ok: number; failed: number };
  /** A script that chained several runs, or a task runner's packages: each run's own counts, in order. */
  runs?: RunCounts[];
}

export interface RunCounts {
  runner: RunnerName;
  package?: string;
  passed?: number;
  failed: number;
  skipped: number;
}

/** What a parser knows of the run beyond its output. */
export interface ParseContext {
  /** The workspace root, to make the runner's absolute paths relative. */
  root: string;
  /** go.mod's module path, to turn a Go package path into its folder. */
  goModule?: string;
}

export interface OutputParser {
  runner: RunnerName;
  /** True when the output looks like this runner's. */
  detect(output: string): boolean;
  parse(output: string, ctx: ParseContext): TestReport;
}

/** CSI sequences (colours, cursor), OSC sequences ended by BEL or ST (hyperlinks, titles), and two-character escapes. */
const ANSI = /\x1b\[[0-9;?<>=!]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripAnsi(s: string): string {
  return s.replace(ANSI, '');
}

/** "2 failed, 1 skipped, 3 passed" (any order, any separators) → counts. */
export function countsFrom(text: string): { passed: number; failed: number; skipped: number; errors: number } {
  const n = (re: RegExp) => [...text.matchAll(re)].reduce((sum, m) => sum + Number(m[1]), 0);
  return {
    passed: n(/(\d+) (?:passed|passing)/g),
    failed: n(/(\d+) (?:failed|failing)\b/g),
    skipped: n(/(\d+) (?:skipped|pending|todo|ignored|xfailed)\b/g),
    errors: n(/(\d+) errors?\b/g),
  };
}

export const loadErrorCount = (failures: readonly TestFailure[]) => failures.filter((f) => f.kind === 'load_error').length;
