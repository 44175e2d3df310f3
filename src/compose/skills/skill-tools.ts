// A skill's tool list in Keel's names. Skills written for Claude Code name its tools (Read,
// Grep, Bash(git:*), …); those map to Keel's nearest tool so such skills work unchanged. A
// `Bash(pattern)` limit maps to run_command whole: the policy still decides each command. Names
// that are no tool here are reported and left out: a list can only narrow what the run offers.

const CLAUDE_CODE_NAMES: Readonly<Record<string, string>> = {
  Read: 'read_file',
  Grep: 'search_files',
  Glob: 'list_files',
  LS: 'list_files',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Write: 'write_file',
  Bash: 'run_command',
};

export function keelTools(written: readonly string[], known: ReadonlySet<string>): { tools: string[]; unknown: string[] } {
  const tools: string[] = [];
  const unknown: string[] = [];
  for (const name of written) {
    const bare = name.replace(/\(.*\)$/, '');
    const keel = known.has(name) ? name : Object.hasOwn(CLAUDE_CODE_NAMES, bare) ? CLAUDE_CODE_NAMES[bare]! : undefined;
    if (keel === undefined || !known.has(keel)) unknown.push(name);
    else if (!tools.includes(keel)) tools.push(keel);
  }
  return { tools, unknown };
}
