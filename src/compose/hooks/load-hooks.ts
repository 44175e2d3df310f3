// Where a task's hooks are defined, read in order: the user's `hooks.json` in Keel's folder
// (the user's own: they run without asking), then — only in a trusted workspace — the
// workspace's `.keel/hooks.json`, `.claude/settings.json` and `.claude/settings.local.json`
// (Claude Code's format, unchanged). Workspace hooks run only once the user allowed that exact
// set of definitions and the bytes of the files they run, known by a hash of both (a changed
// settings file or script asks again).
import { createHash } from 'node:crypto';
import type { Workspace } from '../../kernel/index.js';
import type { SkillProblem } from '../skills/load-skills.js';
import { type SkillSource, workspaceFolderSource } from '../skills/skill-source.js';
import { type HookDefinition, type HookFileFormat, parseHookFile } from './hook-file.js';
import type { HookScript } from './hook-scripts.js';

/** A settings file far larger than this is not a hooks file anyone wrote by hand. */
const HOOK_FILE_MAX_BYTES = 256 * 1024;

export interface HookFile {
  source: SkillSource;
  name: string;
  format: HookFileFormat;
}

/** The user's own hooks file in Keel's folder. */
export function userHookFiles(folder: SkillSource): HookFile[] {
  return [{ source: folder, name: 'hooks.json', format: 'keel' }];
}

/** The workspace's hooks files, in the order they are read. */
export function workspaceHookFiles(workspace: Workspace): HookFile[] {
  const keel = workspaceFolderSource(workspace, '.keel');
  const claude = workspaceFolderSource(workspace, '.claude');
  return [
    { source: keel, name: 'hooks.json', format: 'keel' },
    { source: claude, name: 'settings.json', format: 'claude' },
    { source: claude, name: 'settings.local.json', format: 'claude' },
  ];
}

export interface ReadHooks {
  hooks: HookDefinition[];
  problems: SkillProblem[];
  /** The files' text as read (what a cache compares; '' for a file that is not there). */
  texts: string[];
}

/** The hooks the files define; a file that is absent defines none, one that cannot be read is a problem. */
export async function readHookFiles(files: readonly HookFile[]): Promise<ReadHooks> {
  const out: ReadHooks = { hooks: [], problems: [], texts: [] };
  for (const { source, name, format } of files) {
    const file = `${source.label}/${name}`;
    const listed = (await source.list('').catch(() => [])).find((e) => e.name === name);
    if (!listed) {
      out.texts.push('');
      continue;
    }
    const read = await readText(source, name).catch((err: unknown) => ({ error: (err as Error).message }));
    if (typeof read !== 'string') {
      out.texts.push('');
      out.problems.push({ file, message: `cannot be read (${read.error})` });
      continue;
    }
    out.texts.push(read);
    const parsed = parseHookFile(read, format, file);
    out.hooks.push(...parsed.hooks);
    for (const p of parsed.problems) out.problems.push({ file, ...p });
  }
  return out;
}

async function readText(source: SkillSource, name: string): Promise<string> {
  const { data, size } = await source.read(name, HOOK_FILE_MAX_BYTES);
  if (size > HOOK_FILE_MAX_BYTES) throw new Error(`${size} bytes; a hooks file may have at most ${HOOK_FILE_MAX_BYTES}`);
  return new TextDecoder().decode(data);
}

/**
 * What the user allows: every field that decides what runs, where and when, in file order, and
 * the bytes of every workspace file the commands name (hook-scripts.ts).
 */
export function hooksHash(hooks: readonly HookDefinition[], scripts: readonly HookScript[] = []): string {
  const normal = hooks.map((h) => [h.file, h.point, h.matcher ?? '', h.command, h.timeout ?? null]);
  const files = scripts.map((s) => [s.path, s.sha256]);
  return createHash('sha256')
    .update(JSON.stringify(files.length > 0 ? [normal, files] : normal))
    .digest('hex');
}
