// Checkpointing a step: before the first approved write of each step the files about to change
// are captured (a command that may write: the whole workspace, incrementally); when the step's
// calls are done one `checkpoint_recorded` event logs each changed file's hashes before and after.
// Planning a restore from the logged checkpoints is pure and lives here too.
import type { CapturedFile, CheckpointFile, Checkpoints, RestoreTarget, WorkspaceSnapshot } from './contracts/checkpoints.js';
import type { RuntimeEventInput } from './contracts/events.js';
import type { CheckpointRecord } from './contracts/state.js';
import type { ToolDefinition, ToolIntent } from './contracts/tool.js';

export class StepCheckpoint {
  private readonly captured = new Map<string, CapturedFile>();
  private readonly snapshots: WorkspaceSnapshot[] = [];
  private readonly intentIds: string[] = [];

  constructor(private readonly store: Checkpoints | undefined) {}

  /** Captures what `intent` may change, unless this step already captured it. */
  async beforeRun(intent: ToolIntent, tool: ToolDefinition): Promise<void> {
    if (!this.store || tool.readOnly) return;
    this.intentIds.push(intent.id);
    if (tool.risk === 'write') {
      const fresh = intent.paths.filter((p) => !this.captured.has(p));
      // A file the step's earlier command scan already kept: that is the earlier content.
      const scanned = this.snapshots[0]?.files;
      for (const p of fresh.filter((p) => scanned?.has(p))) this.captured.set(p, scanned!.get(p)!);
      const rest = fresh.filter((p) => !scanned?.has(p));
      if (rest.length > 0) for (const file of await this.store.capture(rest)) this.captured.set(file.path, file);
    } else if (this.snapshots.length === 0) {
      // A command names no files: what it changed is found by comparing with this scan.
      this.snapshots.push(await this.store.snapshot());
    }
  }

  /** The event for this step, or undefined when nothing changed. */
  async finish(step: number): Promise<RuntimeEventInput | undefined> {
    if (!this.store || this.intentIds.length === 0) return undefined;
    const files = new Map<string, CheckpointFile>();
    for (const snapshot of this.snapshots) for (const f of await this.store.changedSince(snapshot)) files.set(f.path, f);
    const after = await this.store.hashes([...this.captured.keys()]);
    for (const [path, file] of this.captured) {
      // Created by the step's command, then written: the scan knows it was absent before.
      const before = this.snapshots.length > 0 && files.has(path) ? files.get(path)!.before : file.before;
      files.set(path, { ...file, before, after: after[path] ?? null });
    }
    const changed = [...files.values()].filter((f) => f.before !== f.after);
    if (changed.length === 0) return undefined;
    return { type: 'checkpoint_recorded', step, kind: 'step', intentIds: [...this.intentIds], files: changed };
  }
}

/**
 * The files to write back to return the workspace to how it was just before checkpoint `seq`:
 * for each file changed at or after it, the earliest `before`, expected to be at the latest
 * `after`. Files whose bytes were not kept are left out and listed in `unrestorable`.
 */
export function planRestore(checkpoints: readonly CheckpointRecord[], seq: number): { targets: RestoreTarget[]; unrestorable: string[] } {
  const targets = new Map<string, RestoreTarget>();
  const unrestorable = new Set<string>();
  for (const cp of checkpoints) {
    if (cp.seq < seq) continue;
    for (const f of cp.files) {
      const known = targets.get(f.path);
      if (!known && f.skipped) unrestorable.add(f.path);
      if (known) known.expected = f.after;
      else targets.set(f.path, { path: f.path, hash: f.before, expected: f.after });
    }
  }
  for (const path of unrestorable) targets.delete(path);
  return { targets: [...targets.values()], unrestorable: [...unrestorable] };
}
