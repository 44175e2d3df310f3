// The run's default limits, each defined once: the Runtime falls back on them, and the hosts that
// offer them as settings or flags (the extension's settings, `keel run`, fleet jobs, replays) read
// them from here. package.json's `contributes.configuration` defaults are held equal to them by
// test/unit/architecture/setting-defaults.test.ts.

/** The model turns one run may take when the host sets no cap. */
export const DEFAULT_MAX_TURNS = 25;

/** The guards when the host sets none: one child's turns, and child turns across the task. */
export const SUBAGENT_DEFAULTS = { maxTurns: 10, turnBudget: 40 } as const;
