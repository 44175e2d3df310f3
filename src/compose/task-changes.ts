// What a task changed in its workspace: each file's content before the task's first change
// (the earliest checkpoint that names it) against the file now, as +/− counts and one unified
// diff. Checkpoints cover edits, writes and the files commands changed, so this sees them all.
import type { Checkpoints, CheckpointRecord, Workspace } from '../kernel/index.js';
import { isBinary, unifiedDiff } from '../tools/index.js';
import type { FileChange } from './run-result.js';

export interface TaskChanges {
  files: FileChange[];
  patch: string;
}

/** The files changed since each was first checkpointed in this task, sorted by path. */
export async function taskChanges(
  records: readonly CheckpointRecord[],
  store: Pick<Checkpoints, 'read'>,
  workspace: Pick<Workspace, 'readFile' | 'stat'>,
): Promise<TaskChanges> {
  const original = new Map<string, string | null>();
  for (const r of records) for (const f of r.files) if (!original.has(f.path)) original.set(f.path, f.before);
  const files: FileChange[] = [];
  const patches: string[] = [];
  for (const path of [...original.keys()].sort()) {
    const beforeHash = original.get(path) ?? null;
    const before = beforeHash === null ? undefined : await store.read(beforeHash);
    if (beforeHash !== null && before === undefined) continue; // not kept (too large): cannot diff
    const after = await currentBytes(workspace, path);
    const change = fileChange(path, before, after);
    if (!change) continue;
    files.push(change.file);
    patches.push(change.patch);
  }
  return { files, patch: patches.join('') };
}

async function currentBytes(workspace: Pick<Workspace, 'readFile' | 'stat'>, path: string): Promise<Uint8Array | undefined> {
  try {
    const stat = await workspace.stat(path);
    return stat?.type === 'file' ? await workspace.readFile(path) : undefined;
  } catch {
    return undefined;
  }
}

function fileChange(
  path: string,
  before: Uint8Array | undefined,
  after: Uint8Array | undefined,
): { file: FileChange; patch: string } | undefined {
  if (before === undefined && after === undefined) return undefined;
  if (before && after && Buffer.compare(Buffer.from(before), Buffer.from(after)) === 0) return undefined;
  const change = before === undefined ? 'created' : after === undefined ? 'deleted' : 'modified';
  if ((before && isBinary(before)) || (after && isBinary(after))) {
    return { file: { path, change, added: 0, removed: 0, binary: true }, patch: `Binary file ${path} ${change}\n` };
  }
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  const diff = unifiedDiff(path, before && decode(before), after ? decode(after) : '');
  const text = after === undefined ? diff.text.replace(`+++ b/${path}\n`, '+++ /dev/null\n') : diff.text;
  return { file: { path, change, added: diff.added, removed: diff.removed }, patch: text };
}
