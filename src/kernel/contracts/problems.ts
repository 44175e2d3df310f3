// The ProblemSource port: the project's problems (type errors, lint findings) as a host's checker
// sees them, asked for around an edit so the edit's observation can say what it broke or fixed.
// VS Code answers from its language services, the CLI from the project's own checkers run in
// the read-only sandbox; the diffing and wording are the tools layer's, shared by both.

/** One problem a checker or language service reports in a workspace file. */
export interface Diagnostic {
  path: string;
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  source?: string;
}

export interface ProblemSnapshot {
  /** Problems in the files asked about and in any other file the checker reported with them. */
  problems: Diagnostic[];
  /** The checkers that answered (`tsc`, `shellcheck`, `VS Code`); empty when none applied. */
  checkers: string[];
  /** What the model should know about the check itself: a checker missing, capped or broken. One line each. */
  notes: string[];
}

export interface SnapshotOptions {
  signal: AbortSignal;
  /** The problems as last checked are good enough (the baseline before an edit); a host may still check again. */
  reuse?: boolean;
}

export interface ProblemSource {
  /** Waits for the problems of `files` (workspace-relative) to settle, bounded in time, and returns them. */
  snapshot(files: readonly string[], options: SnapshotOptions): Promise<ProblemSnapshot>;
}
