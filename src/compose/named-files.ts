// Reading a team's named files (custom agents, slash commands) from folders in order of
// precedence: each source's files with the format's suffix, by file name; the first of a name
// wins (a repository cannot replace the user's own); a file with a problem is skipped and
// reported with its file and line; at most `max` load. The result is sorted by name.
import type { SkillProblem } from './skills/load-skills.js';
import type { SkillSource } from './skills/skill-source.js';

export type NamedFileRead<T> = T | { line?: number; message: string };

export interface NamedFileKind<F extends string, T extends { name: string }> {
  /** How problems name one and many: "an agent" / "agents", "a command" / "commands". */
  one: string;
  many: string;
  max: number;
  suffix: Record<F, string>;
  /** Reads one file (`stem`: its name without the suffix). */
  read(source: SkillSource, name: string, format: F, stem: string): Promise<NamedFileRead<T>>;
}

export async function loadNamedFiles<F extends string, T extends { name: string }>(
  sources: readonly { source: SkillSource; format: F }[],
  kind: NamedFileKind<F, T>,
): Promise<{ loaded: (T & { file: string; scope: SkillSource['scope'] })[]; problems: SkillProblem[] }> {
  const loaded: (T & { file: string; scope: SkillSource['scope'] })[] = [];
  const problems: SkillProblem[] = [];
  for (const { source, format } of sources) {
    const suffix = kind.suffix[format];
    const files = (await source.list('')).filter((e) => e.type === 'file' && e.name.endsWith(suffix) && !e.name.startsWith('.'));
    for (const name of files.map((e) => e.name).sort()) {
      const file = `${source.label}/${name}`;
      const read = await kind.read(source, name, format, name.slice(0, -suffix.length)).catch((err: unknown) => ({
        message: `cannot be read (${(err as Error).message})`,
      }));
      const before = 'message' in read ? undefined : loaded.find((l) => l.name === read.name);
      if ('message' in read) problems.push({ file, ...read });
      else if (before) problems.push({ file, message: `skipped: ${kind.one} named "${read.name}" was read before it (${before.file})` });
      else if (loaded.length >= kind.max) problems.push({ file, message: `skipped: at most ${kind.max} ${kind.many} are loaded` });
      else loaded.push({ ...read, file, scope: source.scope });
    }
  }
  loaded.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { loaded, problems };
}
