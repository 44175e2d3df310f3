// Checkpoints in the transcript: each `checkpoint_recorded` becomes a checkpoint item (Compare,
// Restore …), and the end of a run that changed files adds a Files changed summary. The line
// counts of the summary are filled in later by the host (they need the stored bytes).
import { type CheckpointFile, endsRun, type RuntimeEvent } from '../../kernel/contracts/index.js';
import { visibleText } from '../../kernel/visible-text.js';
import type { ChangesItem, CheckpointItem, FileChange } from '../../protocol/index.js';
import type { TranscriptModel } from './transcript-model.js';

/** True (urgent) for a checkpoint; undefined for any other event, which the caller maps on. */
export function applyCheckpointEvent(model: TranscriptModel, event: RuntimeEvent): boolean | undefined {
  if (event.type === 'checkpoint_recorded') {
    model.add(checkpointItem(event));
    if (event.kind === 'step') model.runCheckpoints.push({ seq: event.seq, files: event.files });
    followSummaries(model, event.files);
    return true;
  }
  // The run's summary goes before whatever the end of the run shows; the end is mapped next.
  if (endsRun(event.type)) addRunSummary(model, event.seq);
  return undefined;
}

function checkpointItem(event: Extract<RuntimeEvent, { type: 'checkpoint_recorded' }>): CheckpointItem {
  return {
    kind: 'checkpoint',
    id: `k${event.seq}`,
    seq: event.seq,
    step: event.step,
    restore: event.kind === 'restore',
    files: event.files.map((f) => ({
      path: visibleText(f.path),
      change: changeOf(f.before, f.after),
      ...(f.skipped ? { skippedBytes: f.skipped.size } : {}),
    })),
  };
}

function addRunSummary(model: TranscriptModel, seq: number): void {
  const checkpoints = model.runCheckpoints;
  model.runCheckpoints = [];
  if (checkpoints.length === 0) return;
  const files = netChanges(checkpoints.flatMap((c) => c.files));
  if (files.length === 0) return;
  const item: ChangesItem = {
    kind: 'changes',
    id: `s${seq}`,
    fromSeq: checkpoints[0]!.seq,
    toSeq: checkpoints[checkpoints.length - 1]!.seq,
    files: files.map((f) => ({ path: visibleText(f.path), change: changeOf(f.before, f.after) })),
  };
  model.add(item);
  const before = new Map(files.map((f) => [f.path, f.before]));
  model.openSummaries.set(item.id, { before, pending: new Set(before.keys()) });
}

/**
 * Follows each summary's files through later checkpoints: once every one is back as it was
 * before that run (restores, in one go or several), its Undo all changes is spent.
 */
function followSummaries(model: TranscriptModel, changed: readonly CheckpointFile[]): void {
  for (const [id, summary] of model.openSummaries) {
    for (const f of changed) {
      if (!summary.before.has(f.path)) continue;
      if (summary.before.get(f.path) === f.after) summary.pending.delete(f.path);
      else summary.pending.add(f.path);
    }
    if (summary.pending.size > 0) continue;
    const item = model.get(id);
    if (item?.kind === 'changes') model.replace({ ...item, undone: true });
    model.openSummaries.delete(id);
  }
}

/** Each path's first `before` and last `after` over the run; files back where they started are left out. */
export function netChanges(files: readonly CheckpointFile[]): { path: string; before: string | null; after: string | null }[] {
  const net = new Map<string, { path: string; before: string | null; after: string | null }>();
  for (const f of files) {
    const known = net.get(f.path);
    if (known) known.after = f.after;
    else net.set(f.path, { path: f.path, before: f.before, after: f.after });
  }
  return [...net.values()].filter((f) => f.before !== f.after);
}

function changeOf(before: string | null, after: string | null): FileChange {
  if (before === null) return 'added';
  if (after === null) return 'deleted';
  return 'modified';
}
