// The checkpoint store on Node: content-addressed blobs (sha-256) in Keel's own storage folder,
// one folder per workspace, never inside the workspace and never touching `.git` (no git
// needed). Restores write the exact stored bytes atomically. A size cap per workspace is kept
// by dropping the oldest tasks' blobs first.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CapturedFile, CheckpointFile, Checkpoints, RestoreTarget, WorkspaceSnapshot } from '../kernel/contracts/checkpoints.js';
import { atomicWrite } from './atomic-write.js';
import { storageError } from './fs-errors.js';
import { TaskIndex, collectGarbage } from './checkpoint-gc.js';
import { WorkspaceScanner } from './checkpoint-scan.js';
import { checkRestorePath, outsideGit } from './restore-path.js';

const DEFAULT_CHECKPOINT_CAP_BYTES = 500 * 1024 * 1024;
const DEFAULT_CHECKPOINT_FILE_CAP_BYTES = 10 * 1024 * 1024;

export interface CheckpointStoreOptions {
  /** Keel's storage folder (the user's cache, the extension's workspace storage). */
  storageDir: string;
  workspaceRoot: string;
  taskId: string;
  maxBytes?: number;
  maxFileBytes?: number;
  /** Workspace-relative paths a scan leaves out (ignore rules); `.git` is always left out. */
  isIgnored?: (relPath: string, isDir: boolean) => boolean;
  now?: () => number;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** One folder per workspace, named by a hash of its root so two workspaces never share. */
function workspaceStorageDir(storageDir: string, workspaceRoot: string): string {
  return path.join(storageDir, 'checkpoints', sha256(Buffer.from(path.resolve(workspaceRoot))).slice(0, 16));
}

export class NodeCheckpointStore implements Checkpoints {
  readonly dir: string;
  private readonly root: string;
  private readonly maxFileBytes: number;
  private readonly index: TaskIndex;
  private readonly scanner: WorkspaceScanner;

  constructor(private readonly options: CheckpointStoreOptions) {
    this.root = path.resolve(options.workspaceRoot);
    this.dir = workspaceStorageDir(options.storageDir, this.root);
    if (isInside(this.dir, this.root)) throw new Error('Keel keeps checkpoints outside the workspace: choose a storage folder outside it.');
    this.maxFileBytes = options.maxFileBytes ?? DEFAULT_CHECKPOINT_FILE_CAP_BYTES;
    this.index = new TaskIndex(path.join(this.dir, 'tasks'), options.taskId, options.now ?? Date.now);
    this.scanner = new WorkspaceScanner(this.root, options.isIgnored, {
      keep: (abs, size) => this.keepFile(abs, size),
      reuse: (file) => {
        if (file.before && !file.skipped) this.index.add(file.before);
      },
    });
  }

  async capture(paths: readonly string[]): Promise<CapturedFile[]> {
    const files: CapturedFile[] = [];
    for (const rel of paths) files.push(await this.keepFile(this.abs(rel), undefined, rel));
    await this.index.save();
    return files;
  }

  async snapshot(): Promise<WorkspaceSnapshot> {
    const files = await this.scanner.scan();
    await this.index.save();
    return { files };
  }

  async changedSince(snapshot: WorkspaceSnapshot): Promise<CheckpointFile[]> {
    const now = await this.scanner.scan();
    await this.index.save();
    const changed: CheckpointFile[] = [];
    for (const [rel, before] of snapshot.files) {
      const after = now.get(rel)?.before ?? null;
      if (after !== before.before) changed.push({ ...before, after });
    }
    for (const [rel, file] of now) if (!snapshot.files.has(rel)) changed.push({ path: rel, before: null, after: file.before });
    return changed;
  }

  async hashes(paths: readonly string[]): Promise<Record<string, string | null>> {
    const out: Record<string, string | null> = {};
    for (const rel of paths) out[rel] = await hashOf(this.abs(rel));
    return out;
  }

  async restore(targets: readonly RestoreTarget[]): Promise<CheckpointFile[]> {
    // Every path is checked and every blob read before anything is written: a link on the way or a missing blob changes nothing.
    for (const t of targets) await checkRestorePath(this.root, this.abs(t.path));
    const blobs = new Map<string, Uint8Array>();
    for (const t of targets) if (t.hash !== null && !blobs.has(t.hash)) blobs.set(t.hash, await this.requireBlob(t.hash, t.path));
    const prior = await this.capture(targets.map((t) => t.path));
    for (const t of targets) {
      const abs = this.abs(t.path);
      // Again just before the write: nothing of Keel's runs meanwhile, but another program may.
      await checkRestorePath(this.root, abs);
      if (t.hash === null) await fs.rm(abs, { force: true });
      else await atomicWrite(abs, blobs.get(t.hash)!);
    }
    return prior.map((p, i) => ({ ...p, after: targets[i]!.hash })).filter((f) => f.before !== f.after);
  }

  async read(hash: string): Promise<Uint8Array | undefined> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    return fs.readFile(this.blobPath(hash)).catch(() => undefined);
  }

  /**
   * Counts stored blobs to this task too (a task forked from another uses its checkpoints), so
   * collecting the older task leaves them. Hashes not stored are ignored.
   */
  async retain(hashes: readonly string[]): Promise<void> {
    for (const h of hashes) if (/^[0-9a-f]{64}$/.test(h) && (await exists(this.blobPath(h)))) this.index.add(h);
    await this.index.save();
  }

  /** Drops the oldest tasks' blobs until the workspace's store is under its cap. */
  collect(): Promise<void> {
    return collectGarbage(this.dir, this.options.maxBytes ?? DEFAULT_CHECKPOINT_CAP_BYTES, this.options.taskId);
  }

  private async requireBlob(hash: string, rel: string): Promise<Uint8Array> {
    const bytes = await this.read(hash);
    if (!bytes || sha256(bytes) !== hash)
      throw new Error(`The checkpoint of ${rel} is no longer stored (collected or damaged); nothing was restored.`);
    return bytes;
  }

  /** Hashes a file and keeps its bytes (unless over the per-file cap). */
  private async keepFile(abs: string, knownSize: number | undefined, rel = this.rel(abs)): Promise<CapturedFile> {
    const stat = await fs.lstat(abs).catch(() => undefined);
    if (!stat?.isFile()) return { path: rel, before: null };
    const bytes = await fs.readFile(abs);
    const hash = sha256(bytes);
    const size = knownSize ?? bytes.length;
    if (bytes.length > this.maxFileBytes) return { path: rel, before: hash, skipped: { reason: 'too_large', size } };
    await this.putBlob(hash, bytes);
    return { path: rel, before: hash };
  }

  private async putBlob(hash: string, bytes: Uint8Array): Promise<void> {
    this.index.add(hash);
    const file = this.blobPath(hash);
    if (await exists(file)) return;
    // No fsync per blob (a scan writes thousands): a torn blob fails its hash check on restore.
    try {
      await atomicWrite(file, bytes, { durable: false });
    } catch (err) {
      throw storageError(err, 'a checkpoint into', this.dir);
    }
  }

  private blobPath(hash: string): string {
    return path.join(this.dir, 'blobs', hash.slice(0, 2), hash);
  }

  /** A workspace-relative path, refused when it leaves the root or enters `.git` by any spelling (restore-path.ts). */
  private abs(rel: string): string {
    const abs = path.resolve(this.root, rel);
    if (!isInside(abs, this.root) || abs === this.root) throw new Error(`Not a file in the workspace: ${rel}`);
    return outsideGit(this.root, abs, rel);
  }

  private rel(abs: string): string {
    return path.relative(this.root, abs).split(path.sep).join('/');
  }
}

function isInside(child: string, parent: string): boolean {
  const r = path.relative(parent, child);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

async function hashOf(abs: string): Promise<string | null> {
  const stat = await fs.lstat(abs).catch(() => undefined);
  if (!stat?.isFile()) return null;
  return sha256(await fs.readFile(abs));
}
