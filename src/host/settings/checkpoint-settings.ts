// The checkpoint caps as the user set them (`keel.checkpoints.maxSizeMB` for the workspace's
// store, `keel.checkpoints.maxFileSizeMB` per file), in bytes. Pure: the host passes a getter.

const MIB = 1024 * 1024;
const DEFAULT_MAX_MB = 500;
const DEFAULT_FILE_MB = 10;

export interface CheckpointCaps {
  maxBytes: number;
  maxFileBytes: number;
}

export function readCheckpointCaps(get: (key: string) => unknown): CheckpointCaps {
  return {
    maxBytes: megabytes(get('checkpoints.maxSizeMB'), DEFAULT_MAX_MB) * MIB,
    maxFileBytes: megabytes(get('checkpoints.maxFileSizeMB'), DEFAULT_FILE_MB) * MIB,
  };
}

/** A positive number of MB; anything else (a typo, a string) is the default. */
function megabytes(value: unknown, fallback: number): number {
  const n = Number(value);
  return typeof value === 'number' && Number.isFinite(n) && n > 0 ? n : fallback;
}
