// The checkpoint caps as the user set them (`keel.checkpoints.maxSizeMB` for the workspace's
// store, `keel.checkpoints.maxFileSizeMB` per file), in bytes. Pure: the host passes a getter.

const MIB = 1024 * 1024;
/** The caps when the user sets none (package.json's defaults, held equal by test/unit/architecture/setting-defaults.test.ts). */
export const CHECKPOINT_DEFAULTS_MB = { store: 500, file: 10 } as const;

export interface CheckpointCaps {
  maxBytes: number;
  maxFileBytes: number;
}

export function readCheckpointCaps(get: (key: string) => unknown): CheckpointCaps {
  return {
    maxBytes: megabytes(get('checkpoints.maxSizeMB'), CHECKPOINT_DEFAULTS_MB.store) * MIB,
    maxFileBytes: megabytes(get('checkpoints.maxFileSizeMB'), CHECKPOINT_DEFAULTS_MB.file) * MIB,
  };
}

/** A positive number of MB; anything else (a typo, a string) is the default. */
function megabytes(value: unknown, fallback: number): number {
  const n = Number(value);
  return typeof value === 'number' && Number.isFinite(n) && n > 0 ? n : fallback;
}
