// The slash commands a task can expand, read when a host asks (the composer's list, `keel run
// "/name …"`): the user's folder first, then the workspace's `.keel/commands`,
// `.claude/commands` and `.github/prompts` (none from an untrusted workspace: the caller
// leaves those sources out). The first command of a name wins, so a repository cannot replace
// the user's own. A file with a problem is skipped and reported with its file and line.
import type { Workspace } from '../../kernel/index.js';
import type { SkillProblem } from '../skills/load-skills.js';
import { keelTools } from '../skills/skill-tools.js';
import { type SkillSource, workspaceFolderSource } from '../skills/skill-source.js';
import { loadNamedFiles, type NamedFileRead } from '../named-files.js';
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
  const { loaded, problems } = await loadNamedFiles(sources, {
    one: 'a command',
    many: 'commands',
    max: MAX_COMMANDS,
    suffix: SUFFIX,
    read: (source, name, format, stem) => readCommand(source, name, format, stem, known),
  });
  return { commands: loaded, problems };
}

async function readCommand(
  source: SkillSource,
  name: string,
  format: CommandFileFormat,
  stem: string,
  known: ReadonlySet<string>,
): Promise<NamedFileRead<Omit<LoadedCommand, 'file' | 'scope'>>> {
  const { data, size } = await source.read(name, COMMAND_FILE_MAX_BYTES);
  if (size > COMMAND_FILE_MAX_BYTES) return { message: `${size} bytes; a command file may have at most ${COMMAND_FILE_MAX_BYTES}` };
  const parsed = parseCommandFile(new TextDecoder().decode(data), format, stem);
  if (!parsed.ok) return { line: parsed.line, message: parsed.message };
  const tools = parsed.command.tools === undefined ? undefined : keelTools(parsed.command.tools, known);
  return { ...parsed.command, tools: tools?.tools, unknownTools: tools?.unknown ?? [] };
}
