// The slash commands a task can expand, read when a host asks (the composer's list, `keel run
// "/name …"`): the user's folder first, then the workspace's `.keel/commands`,
// `.claude/commands` and `.github/prompts` (none from an untrusted workspace: the caller
// leaves those sources out). The first command of a name wins, so a repository cannot replace
// the user's own. A file with a problem is skipped and reported with its file and line.
import type { Workspace } from '../../kernel/index.js';
import type { SkillProblem } from '../skills/load-skills.js';
import { keelTools } from '../skills/skill-tools.js';
import { type SkillSource, workspaceFolderSource } from '../skills/skill-source.js';
import { COMMAND_FILE_MAX_BYTES, type CommandFileFormat, type CommandManifest, parseCommandFile } from './command-file.js';

const MAX_COMMANDS = 200;

export interface CommandSource {
  source: SkillSource;
  format: CommandFileFormat;
}

export type LoadedCommand = Omit<CommandManifest, 'tools'> & {
  file: string;
  scope: 'workspace' | 'user';
  /** Keel tool names (undefined: no list); names Keel has no tool for are in unknownTools. */
  tools: string[] | undefined;
  unknownTools: string[];
};

export function workspaceCommandSources(workspace: Workspace): CommandSource[] {
  return [
    { source: workspaceFolderSource(workspace, '.keel/commands'), format: 'keel' },
    { source: workspaceFolderSource(workspace, '.claude/commands'), format: 'claude' },
    { source: workspaceFolderSource(workspace, '.github/prompts'), format: 'copilot' },
  ];
}

const SUFFIX: Record<CommandFileFormat, string> = { keel: '.md', claude: '.md', copilot: '.prompt.md' };

export async function loadCommands(
  sources: readonly CommandSource[],
  known: ReadonlySet<string>,
): Promise<{ commands: LoadedCommand[]; problems: SkillProblem[] }> {
  const commands: LoadedCommand[] = [];
  const problems: SkillProblem[] = [];
  for (const { source, format } of sources) {
    const suffix = SUFFIX[format];
    const files = (await source.list('')).filter((e) => e.type === 'file' && e.name.endsWith(suffix) && !e.name.startsWith('.'));
    for (const name of files.map((e) => e.name).sort()) {
      const file = `${source.label}/${name}`;
      const read = await readCommand(source, name, format, name.slice(0, -suffix.length), known).catch((err: unknown) => ({
        message: `cannot be read (${(err as Error).message})`,
      }));
      if ('message' in read) problems.push({ file, ...read });
      else if (commands.some((c) => c.name === read.name))
        problems.push({
          file,
          message: `skipped: a command named "${read.name}" was read before it (${commands.find((c) => c.name === read.name)!.file})`,
        });
      else if (commands.length >= MAX_COMMANDS) problems.push({ file, message: `skipped: at most ${MAX_COMMANDS} commands are loaded` });
      else commands.push({ ...read, file, scope: source.scope });
    }
  }
  commands.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { commands, problems };
}

type Read = Omit<LoadedCommand, 'file' | 'scope'> | { line?: number; message: string };

async function readCommand(
  source: SkillSource,
  name: string,
  format: CommandFileFormat,
  stem: string,
  known: ReadonlySet<string>,
): Promise<Read> {
  const { data, size } = await source.read(name, COMMAND_FILE_MAX_BYTES);
  if (size > COMMAND_FILE_MAX_BYTES) return { message: `${size} bytes; a command file may have at most ${COMMAND_FILE_MAX_BYTES}` };
  const parsed = parseCommandFile(new TextDecoder().decode(data), format, stem);
  if (!parsed.ok) return { line: parsed.line, message: parsed.message };
  const tools = parsed.command.tools === undefined ? undefined : keelTools(parsed.command.tools, known);
  return { ...parsed.command, tools: tools?.tools, unknownTools: tools?.unknown ?? [] };
}
