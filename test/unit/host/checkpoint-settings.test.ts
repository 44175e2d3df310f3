// The checkpoint caps a user sets: MB in the settings, bytes for the store; a value that is not
// a positive number falls back to the default rather than turning checkpoints off or unbounded.
import assert from 'node:assert/strict';
import { readCheckpointCaps } from '../../../src/host/settings/checkpoint-settings.js';

const MIB = 1024 * 1024;

describe('host/checkpoint-settings', () => {
  it('defaults to 500 MB per workspace and 10 MB per file', () => {
    assert.deepEqual(
      readCheckpointCaps(() => undefined),
      { maxBytes: 500 * MIB, maxFileBytes: 10 * MIB },
    );
  });

  it('takes the user’s numbers and ignores nonsense', () => {
    const values: Record<string, unknown> = { 'checkpoints.maxSizeMB': 50, 'checkpoints.maxFileSizeMB': 0.5 };
    assert.deepEqual(
      readCheckpointCaps((k) => values[k]),
      { maxBytes: 50 * MIB, maxFileBytes: 0.5 * MIB },
    );
    const bad: Record<string, unknown> = { 'checkpoints.maxSizeMB': -1, 'checkpoints.maxFileSizeMB': '20' };
    assert.deepEqual(
      readCheckpointCaps((k) => bad[k]),
      { maxBytes: 500 * MIB, maxFileBytes: 10 * MIB },
    );
  });
});
