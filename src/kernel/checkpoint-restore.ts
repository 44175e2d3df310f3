// Restoring files to a point of the task: every checkpoint logged after that point is undone
// (planRestore), files the user changed since the task last wrote them are confirmed first, and
// the restore is logged as a checkpoint of its own (kind 'restore'), so it can be undone too.
// Pure orchestration over the Checkpoints port; the host supplies the confirm question.
import type { Checkpoints, RestoreTarget } from './contracts/checkpoints.js';
import type { RuntimeEventInput } from './contracts/events.js';
import type { CheckpointRecord } from './contracts/state.js';
import { planRestore } from './checkpointing.js';

/** What a restore did; `declined` when the user kept their changes. */
export type RestoreOutcome =
  | { type: 'restored'; paths: string[]; unrestorable: string[] }
  | { type: 'nothing'; unrestorable: string[] }
  | { type: 'declined' };

export interface RestoreRequest {
  /** The workspace is put back as it was right after the event with this seq. */
  afterSeq: number;
  /** Asked with the files whose bytes on disk differ from what the task last left; true: overwrite. */
  confirmOverwrite(paths: readonly string[]): Promise<boolean>;
}

export interface RestoreHost {
  store: Checkpoints;
  checkpoints: readonly CheckpointRecord[];
  step: number;
  emit(event: RuntimeEventInput): void;
}

export async function restoreFiles(host: RestoreHost, request: RestoreRequest): Promise<RestoreOutcome> {
  const { targets, unrestorable } = planRestore(host.checkpoints, request.afterSeq + 1);
  const now = await host.store.hashes(targets.map((t) => t.path));
  // A file already as it should be is left alone (and never asked about).
  const work = targets.filter((t) => now[t.path] !== t.hash);
  if (work.length === 0) return { type: 'nothing', unrestorable };
  const changed = userChanged(work, now);
  if (changed.length > 0 && !(await request.confirmOverwrite(changed))) return { type: 'declined' };
  const files = await host.store.restore(work);
  if (files.length > 0) host.emit({ type: 'checkpoint_recorded', step: host.step, kind: 'restore', intentIds: [], files });
  return { type: 'restored', paths: work.map((t) => t.path), unrestorable };
}

/** Targets whose current hash is not the one the task last left: someone else changed them. */
function userChanged(targets: readonly RestoreTarget[], now: Record<string, string | null>): string[] {
  return targets.filter((t) => now[t.path] !== t.expected).map((t) => t.path);
}
