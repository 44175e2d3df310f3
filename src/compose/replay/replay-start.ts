// The workspace a replay starts from: a copy of the task's folder (never its .git) with every
// file the task changed put back to its bytes before the task, read from the checkpoint store.
// Shared by `keel replay` and the extension's Keel: Replay Task; the user's folder is only read.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { planRestore, replay, type RuntimeEvent } from '../../kernel/index.js';

/**
 * The replay cannot start from the log's checkpoints: the message says what to give instead
 * (`keel replay` reports it as a usage error, the extension as a message).
 */
export class ReplayStartError extends Error {
  override name = 'ReplayStartError';
}

/** A copy of the folder without its .git: the replay's edits and commands land in the copy. */
export function copyWorkspace(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, filter: (src) => path.basename(src) !== '.git' });
}

/**
 * Copies `from` to `work`, then restores the task's starting content there. Without
 * checkpoints in the log, or with blobs no longer stored, the user must give the starting
 * workspace (ReplayStartError says so).
 */
export async function startFromCheckpoints(
  events: readonly RuntimeEvent[],
  store: () => { read(hash: string): Promise<Uint8Array | undefined> },
  from: string,
  work: string,
): Promise<void> {
  const checkpoints = replay(events).checkpoints;
  if (checkpoints.length === 0)
    throw new ReplayStartError('This log records no checkpoints: give --workspace DIR, a folder in the state the task started from.');
  const { targets, unrestorable } = planRestore(checkpoints, 0);
  if (unrestorable.length > 0)
    throw new ReplayStartError(
      `The checkpoints skipped ${unrestorable.join(', ')} (too large): give --workspace DIR, a folder in the state the task started from.`,
    );
  let reader: ReturnType<typeof store>;
  try {
    reader = store();
  } catch (err) {
    throw new ReplayStartError(`${(err as Error).message} Or give --workspace DIR.`);
  }
  const blobs = new Map<string, Uint8Array>();
  for (const t of targets) {
    if (t.hash === null) continue;
    const bytes = await reader.read(t.hash);
    if (!bytes || createHash('sha256').update(bytes).digest('hex') !== t.hash)
      throw new ReplayStartError(
        `The checkpoint of ${t.path} is not in this folder's checkpoint store (collected, or the task ran in another folder): run keel replay in the task's workspace, or give --workspace DIR.`,
      );
    blobs.set(t.path, bytes);
  }
  copyWorkspace(from, work);
  for (const t of targets) {
    const file = path.join(work, t.path);
    if (t.hash === null) fs.rmSync(file, { force: true });
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, blobs.get(t.path)!);
    }
  }
}
