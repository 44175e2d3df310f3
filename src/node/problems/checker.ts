// One project checker the headless ProblemSource runs: which changed files it answers for, the
// command line it runs in the read-only sandbox, and how its output becomes problems.
import type { Diagnostic } from '../../kernel/index.js';

export interface Checker {
  /** Its name in the report (`tsc`, `shellcheck`). */
  name: string;
  /** The changed files it checks (workspace-relative); none: it is not asked. */
  handles(file: string): boolean;
  /** Why it cannot run here (no tsconfig.json, not installed), or undefined when it can. */
  missing(): string | undefined;
  /** The command line for these files; a whole-project checker ignores them. */
  commandLine(files: readonly string[]): string;
  /** Whether one run answers for the whole project (its result may stand in as the baseline). */
  wholeProject: boolean;
  parse(output: string): Diagnostic[];
}

/** A file name as one shell word. */
export function shellWord(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
