// Where skills are read from: a folder of skill folders, in the workspace (`.keel/skills`,
// through the Workspace port, which keeps every path inside the workspace) or in the user's
// Keel folder (src/node/skill-folder.ts). Paths are relative to that folder, POSIX.
import type { Workspace } from '../../kernel/index.js';

export const WORKSPACE_SKILLS_FOLDER = '.keel/skills';
const READ_WHOLE_MAX_BYTES = 4 * 1024 * 1024;

interface SkillSourceEntry {
  name: string;
  /** 'other' for anything not a plain file or folder (a symbolic link in the user folder). */
  type: 'file' | 'directory' | 'other';
}

export interface SkillSource {
  scope: 'workspace' | 'user';
  /** How the folder is shown to people (and the model): `.keel/skills` or an absolute path. */
  label: string;
  /** The folder's entries ('' is the source's own folder); empty when it does not exist. */
  list(path: string): Promise<SkillSourceEntry[]>;
  /** At most `maxBytes` of a file, and its whole size. */
  read(path: string, maxBytes: number): Promise<{ data: Uint8Array; size: number }>;
}

/** The workspace's `.keel/skills`. */
export function workspaceSkillSource(workspace: Workspace): SkillSource {
  return workspaceFolderSource(workspace, WORKSPACE_SKILLS_FOLDER);
}

/** A folder of the workspace (`.keel/agents`, `.claude/commands`, …) read as a source. */
export function workspaceFolderSource(workspace: Workspace, folder: string): SkillSource {
  const full = (p: string) => (p === '' ? folder : `${folder}/${p}`);
  return {
    scope: 'workspace',
    label: folder,
    async list(path) {
      const entries = await workspace.readDir(full(path)).catch(() => []);
      return entries.map((e) => ({ name: e.path.slice(e.path.lastIndexOf('/') + 1), type: e.type }));
    },
    async read(path, maxBytes) {
      const stat = await workspace.stat(full(path));
      if (stat?.type !== 'file') throw new Error(`${full(path)} is not a file`);
      // The port reads whole files: one far over the limit is not read at all.
      if (stat.size > READ_WHOLE_MAX_BYTES) return { data: new Uint8Array(), size: stat.size };
      const data = await workspace.readFile(full(path));
      return { data: data.subarray(0, maxBytes), size: data.length };
    },
  };
}
