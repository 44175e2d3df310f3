// What the classifier says about a command line: its class, why, every program it may run and
// every file it may touch. One part's judgement is combined with the others' here, worst first.

export type CommandClass = 'read_only' | 'test_run' | 'execute' | 'network' | 'unparseable' | 'dangerous' | 'denied';

export interface CommandPath {
  /** As written, relative to the directory the command line starts in (after following `cd`). */
  path: string;
  access: 'read' | 'write';
  /** A bash pattern (`*`, `?`, `[…]`; quoted characters escaped with `\`) that expands to the files it matches. */
  glob?: true;
  /** The program reads every file under it when it is a directory (grep -r, rg). */
  recursive?: true;
  /** …and follows symbolic links it finds there (diff given folders). */
  followsLinks?: true;
}

/**
 * A program whose safety depends on the folder it starts in: a test runner (its config search
 * climbs from there) or git (the repository found from there).
 */
export interface LocatedProgram {
  kind: 'test_runner' | 'git';
  /** The runner (runner-roots.ts), or `git`. */
  name: string;
  /** The folder it starts in, relative to where the line starts (after `cd`, and git's -C). */
  cwd: string;
}

export interface CommandClassification {
  type: CommandClass;
  /** Why, for people: "curl uses the network", "writes to ~/.ssh/x". */
  reasons: string[];
  /** Every program the line may run, by the name written (wrappers and builtins included). */
  programs: string[];
  /** Every operand, option value or redirection that may name a file. */
  paths: CommandPath[];
  /** Test runners and git, with the folders they may start in. */
  located?: LocatedProgram[];
  /**
   * Why the line runs unasked only inside the test-run sandbox: it runs what the workspace
   * defines or holds (a Makefile, .venv/bin/python), looks for settings above the workspace or
   * may download — contained there (no network, the home folder and the workspace's parents out
   * of reach, protected paths read-only), so without a sandbox it asks.
   */
  sandboxOnly?: string;
}

/** One simple command's judgement; its paths are relative to the directory it runs in. */
export interface Judgement {
  type: CommandClass;
  reason?: string;
  programs: string[];
  paths: CommandPath[];
  located?: LocatedProgram[];
  /** The static directory a `cd` changes to. */
  cd?: string;
  /** As CommandClassification's. */
  sandboxOnly?: string;
}

export const RANK: Record<CommandClass, number> = {
  read_only: 0,
  test_run: 1,
  execute: 2,
  network: 3,
  unparseable: 4,
  dangerous: 5,
  denied: 6,
};

export function judgement(type: CommandClass, reason?: string, extra?: Partial<Judgement>): Judgement {
  const j: Judgement = { type, programs: extra?.programs ?? [], paths: extra?.paths ?? [] };
  if (extra?.located?.length) j.located = extra.located;
  if (reason) j.reason = reason;
  if (extra?.cd !== undefined) j.cd = extra.cd;
  if (extra?.sandboxOnly) j.sandboxOnly = extra.sandboxOnly;
  return j;
}

/** The worse of two judgements, keeping both one's programs and paths. */
export function worst(a: Judgement, b: Judgement): Judgement {
  const [top, other] = RANK[b.type] > RANK[a.type] ? [b, a] : [a, b];
  const located = [...(a.located ?? []), ...(b.located ?? [])];
  const sandboxOnly = a.sandboxOnly ?? b.sandboxOnly;
  return {
    ...top,
    reason: top.reason ?? other.reason,
    programs: [...a.programs, ...b.programs],
    paths: [...a.paths, ...b.paths],
    ...(located.length ? { located } : {}),
    ...(sandboxOnly ? { sandboxOnly } : {}),
  };
}

export function readPath(path: string, extra: Partial<CommandPath> = {}): CommandPath {
  return { path, access: 'read', ...extra };
}

/** The table's own entry for a name a command line chose: never `constructor` or `__proto__` from Object. */
export function own<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
