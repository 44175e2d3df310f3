// The workspace scan a command's checkpoint compares against: every non-ignored file (never
// `.git`, never a symbolic link, never one of Keel's temporary files), hashed only when its size or mtime changed since the last scan,
// so the second scan of a large tree costs a walk and a stat per file. Folders only dependencies
// and tools write are never entered, ignored by git or not: node_modules, a folder a tool marked
// as its cache (CACHEDIR.TAG: cargo's target, pytest's cache), a Python virtualenv (pyvenv.cfg) —
// a task's checkpoint does not hash and store 15,000 installed files, and restoring a step leaves
// them as the installer left them.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CapturedFile } from '../kernel/contracts/checkpoints.js';
import { isKeelTempPath } from '../kernel/temp-files.js';

/** git's own files, and installed dependencies. */
const NOT_ENTERED = new Set(['.git', 'node_modules']);
/** A file that marks its folder as a tool's: a cache (cargo, pytest…), a virtualenv. */
const TOOL_FOLDER_MARKS = new Set(['CACHEDIR.TAG', 'pyvenv.cfg']);

/** Files hashed at the same time within one folder. */
const FILES_AT_ONCE = 64;

interface Seen {
  size: number;
  mtimeMs: number;
  file: CapturedFile;
}

export interface ScanHooks {
  /** Hashes (and keeps) a file that is new or changed. */
  keep(abs: string, size: number): Promise<CapturedFile>;
  /** A file unchanged since the last scan: its blob is still in use by this task. */
  reuse(file: CapturedFile): void;
}

export class WorkspaceScanner {
  private seen = new Map<string, Seen>();

  constructor(
    private readonly root: string,
    private readonly isIgnored: ((rel: string, isDir: boolean) => boolean) | undefined,
    private readonly hooks: ScanHooks,
  ) {}

  async scan(): Promise<Map<string, CapturedFile>> {
    const next = new Map<string, Seen>();
    await this.walk('', next);
    this.seen = next;
    return new Map([...next].map(([rel, s]) => [rel, s.file]));
  }

  private async walk(dirRel: string, out: Map<string, Seen>): Promise<void> {
    const entries = await fs.readdir(path.join(this.root, dirRel), { withFileTypes: true }).catch(() => []);
    if (dirRel && entries.some((e) => e.isFile() && TOOL_FOLDER_MARKS.has(e.name))) return;
    const subdirs: string[] = [];
    const files: string[] = [];
    for (const entry of entries) {
      const rel = dirRel ? `${dirRel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!NOT_ENTERED.has(entry.name) && !this.isIgnored?.(rel, true)) subdirs.push(rel);
      } else if (entry.isFile() && !isKeelTempPath(entry.name) && !this.isIgnored?.(rel, false)) files.push(rel);
    }
    // A bounded number at once: a folder of 200,000 files opened together ran out of descriptors
    // (EMFILE), failing the checkpoint and every socket Keel opened meanwhile.
    for (let i = 0; i < files.length; i += FILES_AT_ONCE)
      await Promise.all(files.slice(i, i + FILES_AT_ONCE).map((rel) => this.visit(rel, out)));
    for (const sub of subdirs) await this.walk(sub, out);
  }

  private async visit(rel: string, out: Map<string, Seen>): Promise<void> {
    const abs = path.join(this.root, rel);
    const stat = await fs.lstat(abs).catch(() => undefined);
    if (!stat?.isFile()) return;
    const known = this.seen.get(rel);
    if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) {
      this.hooks.reuse(known.file);
      out.set(rel, known);
      return;
    }
    out.set(rel, { size: stat.size, mtimeMs: stat.mtimeMs, file: await this.hooks.keep(abs, stat.size) });
  }
}
