// A skill's (or custom agent's) tool list in Keel's names. Files written for Claude Code name
// its tools (Read, Grep, Bash(git:*), …) and files written for GitHub Copilot name its tools or
// tool sets (read, edit, search, runCommands, edit/editFiles — by its tool, …); those map to Keel's nearest
// tools so such files work unchanged. A `Bash(pattern)` limit maps to run_command whole: the
// policy still decides each command. Names that are no tool here are reported and left out: a
// list can only narrow what the run offers.

const CLAUDE_CODE_NAMES: Readonly<Record<string, readonly string[]>> = {
  Read: ['read_file'],
  Grep: ['search_files'],
  Glob: ['list_files'],
  LS: ['list_files'],
  Edit: ['edit_file'],
  MultiEdit: ['edit_file'],
  Write: ['write_file'],
  Bash: ['run_command'],
  WebFetch: ['web_fetch'],
  TodoWrite: ['todo_write', 'todo_read'],
  Task: ['delegate'],
  Agent: ['delegate'],
};

/** Copilot's tool sets and tools (a `set/tool` name maps by its set when the tool is not listed). */
const COPILOT_NAMES: Readonly<Record<string, readonly string[]>> = {
  read: ['read_file', 'list_files'],
  readFile: ['read_file'],
  edit: ['edit_file', 'write_file'],
  editFiles: ['edit_file', 'write_file'],
  search: ['search_files', 'list_files'],
  codebase: ['search_files', 'find_symbol'],
  usages: ['find_references'],
  problems: ['get_diagnostics'],
  changes: ['git'],
  execute: ['run_command'],
  runCommands: ['run_command'],
  runInTerminal: ['run_command'],
  fetch: ['web_fetch'],
  web: ['web_fetch'],
  todo: ['todo_write', 'todo_read'],
  todos: ['todo_write', 'todo_read'],
  agent: ['delegate'],
};

function peerNames(name: string): readonly string[] | undefined {
  const bare = name.replace(/\(.*\)$/, '');
  if (Object.hasOwn(CLAUDE_CODE_NAMES, bare)) return CLAUDE_CODE_NAMES[bare];
  if (Object.hasOwn(COPILOT_NAMES, bare)) return COPILOT_NAMES[bare];
  // `set/tool` maps by the tool alone: its set (read/terminalSelection) would grant more than was listed.
  const tool = bare.split('/')[1];
  return tool !== undefined && Object.hasOwn(COPILOT_NAMES, tool) ? COPILOT_NAMES[tool] : undefined;
}

export function keelTools(written: readonly string[], known: ReadonlySet<string>): { tools: string[]; unknown: string[] } {
  const tools: string[] = [];
  const unknown: string[] = [];
  for (const name of written) {
    const keel = (known.has(name) ? [name] : (peerNames(name) ?? [])).filter((t) => known.has(t));
    if (keel.length === 0) unknown.push(name);
    for (const t of keel) if (!tools.includes(t)) tools.push(t);
  }
  return { tools, unknown };
}

/** Claude Code's names for a Keel tool (a hook's matcher written for Claude Code names these). */
export function claudeNamesOf(keelTool: string): string[] {
  return Object.entries(CLAUDE_CODE_NAMES)
    .filter(([, tools]) => tools.includes(keelTool))
    .map(([name]) => name);
}
