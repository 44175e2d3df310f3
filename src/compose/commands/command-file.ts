// One slash command file, in any of the three formats Keel reads unchanged:
// - keel:    `.keel/commands/NAME.md` (and the user's folder);
// - claude:  `.claude/commands/NAME.md`, Claude Code's custom slash commands;
// - copilot: `.github/prompts/NAME.prompt.md`, GitHub Copilot's prompt files.
// The command is called by its file's name; the body is the prompt. Front matter is optional:
// `description`, `argument-hint`, `agent` (Copilot's older `mode` too), `model`, `tools` (a
// list that only narrows). Other fields are ignored. A problem comes back with its line.
import { nameList, parseFrontMatter } from '../front-matter.js';

export type CommandFileFormat = 'keel' | 'claude' | 'copilot';

export const COMMAND_FILE_MAX_BYTES = 64 * 1024;
const NAME_PATTERN = /^[a-z0-9]+([-_.][a-z0-9]+)*$/;
const NAME_MAX = 64;
const TEXT_MAX = 1024;

export interface CommandManifest {
  name: string;
  description: string | undefined;
  argumentHint: string | undefined;
  /** A custom agent's name the expanded prompt is sent as. */
  agent: string | undefined;
  model: string | undefined;
  /** As written (undefined: no list); mapped to Keel's names later. */
  tools: string[] | undefined;
  prompt: string;
}

export type ParsedCommand = { ok: true; command: CommandManifest } | { ok: false; line: number; message: string };

/** Why a file's name cannot be a command's name (undefined: it can). */
function commandNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > NAME_MAX || !NAME_PATTERN.test(name))
    return `a command's name has 1 to ${NAME_MAX} lowercase letters and digits, with single - _ or . between them (like "fix-tests")`;
  return undefined;
}

export function parseCommandFile(text: string, format: CommandFileFormat, stem: string): ParsedCommand {
  const problem = commandNameProblem(stem);
  if (problem) return fail(1, `the file name "${stem}" cannot name a command: ${problem}`);
  const parsed = parseFrontMatter(quoteArgumentHint(text), 'a command file', false);
  if (!parsed.ok) return parsed;
  const { data, lineOf, body } = parsed.matter;
  const fieldLine = (key: string) => lineOf(key) ?? 2;
  const texts: Record<string, string | undefined> = {};
  // Copilot's prompt files named the agent `mode` before they named it `agent`.
  const agentKey = format === 'copilot' && data.agent === undefined ? 'mode' : 'agent';
  for (const key of ['description', 'argument-hint', agentKey, 'model']) {
    const value = data[key];
    if (value !== undefined && typeof value !== 'string') return fail(fieldLine(key), `"${key}" must be text`);
    if (typeof value === 'string' && value.length > TEXT_MAX)
      return fail(fieldLine(key), `"${key}" has ${value.length} characters; at most ${TEXT_MAX}`);
    texts[key] = typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
  }
  const tools = nameList(data.tools);
  if (tools === null) return fail(fieldLine('tools'), '"tools" must be a list of tool names, or one line of them');
  if (body.trim() === '') return fail(1, 'the command has no prompt: write it after the front matter (or as the whole file)');
  // Copilot's built-in modes are not custom agents: its `mode: agent` means "the normal agent".
  const agent =
    texts[agentKey] && !(format === 'copilot' && ['agent', 'ask', 'edit'].includes(texts[agentKey]!)) ? texts[agentKey] : undefined;
  return {
    ok: true,
    command: {
      name: stem,
      description: texts.description,
      argumentHint: texts['argument-hint'],
      agent,
      model: texts.model,
      tools,
      prompt: body.trim(),
    },
  };
}

/**
 * Claude Code's commands write `argument-hint: [pr-number] [priority]`, which YAML would read
 * as a list (or refuse); the hint is text, so its line is quoted as written. Lines keep their numbers.
 */
function quoteArgumentHint(text: string): string {
  return text.replace(
    /^(argument-hint:[ \t]*)(\[[^\r\n]*)$/m,
    (_, key: string, value: string) => `${key}${JSON.stringify(value.trimEnd())}`,
  );
}

function fail(line: number, message: string): ParsedCommand {
  return { ok: false, line, message };
}

/**
 * The prompt with the user's arguments: `$ARGUMENTS` is all of them as typed, `$1`…`$9` each one
 * (split on spaces; "double" or 'single' quotes keep spaces). A prompt with no placeholder gets
 * the arguments on a last line, so nothing the user typed is dropped.
 */
export function expandCommand(prompt: string, args: string): string {
  const all = args.trim();
  const parts = splitArguments(all);
  if (!/\$ARGUMENTS|\$[1-9]/.test(prompt)) return all === '' ? prompt : `${prompt}\n\nArguments: ${all}`;
  // One pass, so an argument that contains "$1" is not expanded again.
  return prompt.replace(/\$ARGUMENTS|\$([1-9])/g, (_, n: string | undefined) => (n === undefined ? all : (parts[Number(n) - 1] ?? '')));
}

function splitArguments(args: string): string[] {
  const parts: string[] = [];
  for (const m of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) parts.push(m[1] ?? m[2] ?? m[3] ?? '');
  return parts;
}

/** `/name rest` → the name and the rest; undefined when the text is not a command call. */
export function commandCall(text: string): { name: string; args: string } | undefined {
  const m = /^\/([a-z0-9]+(?:[-_.][a-z0-9]+)*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1]!, args: m[2] ?? '' } : undefined;
}
