// The memory store on Node: one JSON Lines file for the user's memories and one per workspace,
// in a folder Keel owns (never the workspace tree). Records go to the file of their scope.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rankMemories, type MemoryRecord, type MemoryStore, type RecallHit, type RecallQuery } from '../kernel/index.js';
import { MemoryFile, type MemoryFileProblem } from './memory-file.js';
import { keelConfigDir } from './config-folder.js';

export interface MemoryFiles {
  user: string;
  /** Absent when no workspace folder is open: workspace memories cannot be kept then. */
  workspace?: string;
}

export class JsonlMemoryStore implements MemoryStore {
  private constructor(
    private readonly user: MemoryFile,
    private readonly workspace: MemoryFile | undefined,
    private readonly now: () => number,
  ) {}

  static open(files: MemoryFiles, now: () => number = Date.now): JsonlMemoryStore {
    const workspace = files.workspace === undefined ? undefined : MemoryFile.open(files.workspace);
    return new JsonlMemoryStore(MemoryFile.open(files.user), workspace, now);
  }

  /** Lines set aside when the files were opened (torn by a crash, or not records). */
  get problems(): readonly MemoryFileProblem[] {
    return [...this.user.problems, ...(this.workspace?.problems ?? [])];
  }

  async append(record: MemoryRecord): Promise<void> {
    this.fileFor(record.scope).append(record);
  }

  async tombstone(id: string): Promise<boolean> {
    const file = [this.workspace, this.user].find((f) => f?.has(id));
    if (!file) return false;
    file.tombstone(id, this.now());
    return true;
  }

  async list(): Promise<MemoryRecord[]> {
    return [...(this.workspace?.live() ?? []), ...this.user.live()];
  }

  async recall(query: RecallQuery): Promise<RecallHit[]> {
    return rankMemories(await this.list(), query);
  }

  private fileFor(scope: MemoryRecord['scope']): MemoryFile {
    if (scope === 'user') return this.user;
    if (!this.workspace) throw new Error('No workspace folder is open, so a workspace memory cannot be kept; use scope "user".');
    return this.workspace;
  }
}

/**
 * Where the CLI keeps memories: `$XDG_CONFIG_HOME/keel/memory` (else `~/.config/keel/memory`),
 * the user's file and one file per workspace, named by a hash of its real path.
 */
export function cliMemoryFiles(workspaceRoot: string | undefined, env: NodeJS.ProcessEnv = process.env): MemoryFiles {
  return memoryFilesIn(path.join(keelConfigDir(env), 'memory'), workspaceRoot);
}

/** The files under a folder Keel owns (the CLI's config folder, the extension's global storage). */
export function memoryFilesIn(dir: string, workspaceRoot: string | undefined): MemoryFiles {
  const files: MemoryFiles = { user: path.join(dir, 'user.jsonl') };
  if (workspaceRoot === undefined) return files;
  const root = realOr(workspaceRoot);
  if (isInside(path.resolve(dir), root))
    throw new Error(`Keel keeps memories outside the workspace, but the memory folder ${dir} is inside ${root}.`);
  const key = crypto.createHash('sha256').update(root).digest('hex').slice(0, 16);
  return { ...files, workspace: path.join(dir, 'workspaces', `${key}.jsonl`) };
}

/**
 * Where the extension keeps memories: the user's in its global storage, the workspace's in its
 * workspace storage (absent without a folder). Both are folders VS Code gives the extension
 * outside the workspace; one inside it is refused rather than used.
 */
export function extensionMemoryFiles(
  dirs: { global: string; workspace?: string | undefined },
  workspaceRoot: string | undefined,
): MemoryFiles {
  const user = path.join(dirs.global, 'memory', 'user.jsonl');
  const workspace =
    dirs.workspace === undefined || workspaceRoot === undefined ? undefined : path.join(dirs.workspace, 'memory', 'workspace.jsonl');
  const root = workspaceRoot === undefined ? undefined : realOr(workspaceRoot);
  for (const file of [user, workspace])
    if (file !== undefined && root !== undefined && isInside(path.resolve(file), root))
      throw new Error(`Keel keeps memories outside the workspace, but ${file} is inside ${root}.`);
  return workspace === undefined ? { user } : { user, workspace };
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
