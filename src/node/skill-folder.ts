// The user's skills folder on disk, read for src/compose/skills: `$XDG_CONFIG_HOME/keel/skills`
// (else `~/.config/keel/skills`), the same folder for `keel run` and the extension. Symbolic
// links are neither listed as files nor followed, and no path leaves the folder.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { keelConfigDir } from './config-folder.js';

/** Where the user's own skills live. */
export function userSkillsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(keelConfigDir(env), 'skills');
}

interface FolderEntry {
  name: string;
  type: 'file' | 'directory' | 'other';
}

/** Where the user's own custom agents live: `$XDG_CONFIG_HOME/keel/agents` (else `~/.config/keel/agents`). */
export function userAgentsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.dirname(userSkillsDir(env)), 'agents');
}

/** Where the user's own slash commands live: `$XDG_CONFIG_HOME/keel/commands` (else `~/.config/keel/commands`). */
export function userCommandsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.dirname(userSkillsDir(env)), 'commands');
}

/** A skill source over `dir` (its shape is compose's SkillSource). */
export function userSkillFolder(dir: string) {
  const inside = (rel: string): string => {
    const full = path.resolve(dir, rel);
    const back = path.relative(dir, full);
    if (back.startsWith('..') || path.isAbsolute(back)) throw new Error(`${rel} is outside the skills folder`);
    return full;
  };
  return {
    scope: 'user' as const,
    label: dir,
    async list(rel: string): Promise<FolderEntry[]> {
      const entries = await fs.readdir(inside(rel), { withFileTypes: true }).catch(() => []);
      return entries.map((e) => ({ name: e.name, type: e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other' }));
    },
    async read(rel: string, maxBytes: number): Promise<{ data: Uint8Array; size: number }> {
      const file = inside(rel);
      if ((await fs.lstat(file)).isSymbolicLink()) throw new Error(`${rel} is a symbolic link`);
      const handle = await fs.open(file, 'r');
      try {
        const { size } = await handle.stat();
        const data = new Uint8Array(Math.min(size, maxBytes));
        const { bytesRead } = await handle.read(data, 0, data.length, 0);
        return { data: data.subarray(0, bytesRead), size };
      } finally {
        await handle.close();
      }
    },
  };
}
