// What a card calls a tool call, in the words a person uses: "Run the tests", not `run_tests`
// (the tool's name stays in the card's tooltip). An MCP tool is named with its server. The live
// status line says what is going on in the same words ("Running the tests…").

const TITLES: Record<string, string> = {
  run_tests: 'Run the tests',
  run_command: 'Run a command',
  edit_file: 'Edit a file',
  write_file: 'Write a file',
  read_file: 'Read a file',
  list_files: 'List files',
  search_files: 'Search the workspace',
  get_diagnostics: 'Read the problems',
  delegate: 'Hand a task to a sub-agent',
  delegate_plan: 'Run a plan of sub-agents',
  remember: 'Remember',
  recall: 'Recall memories',
  forget: 'Forget a memory',
  use_skill: 'Use a skill',
  mcp_read_resource: 'Read an MCP resource',
  apply_code: 'Apply a code block',
  web_fetch: 'Fetch a web page',
  find_symbol: 'Find a symbol',
  go_to_definition: 'Go to a definition',
  find_references: 'Find the references',
  document_outline: 'Outline a file',
  type_info: 'Read a type',
  todo_write: 'Update the to-do list',
  todo_read: 'Read the to-do list',
};

const DOING: Record<string, string> = {
  run_tests: 'Running the tests',
  run_command: 'Running the command',
  edit_file: 'Editing the file',
  write_file: 'Writing the file',
  read_file: 'Reading the file',
  list_files: 'Listing files',
  search_files: 'Searching',
  get_diagnostics: 'Reading the problems',
  delegate: 'A sub-agent is working',
  delegate_plan: 'Sub-agents are working',
  web_fetch: 'Fetching the page',
  find_symbol: 'Finding the symbol',
  find_references: 'Finding the references',
};

/** `mcp__github__create_issue` → server `github`, tool `create_issue` (the names Keel gives MCP tools). */
function mcpParts(tool: string): { server: string; name: string } | undefined {
  const m = /^mcp__(.+?)__(.+)$/.exec(tool);
  return m ? { server: m[1]!, name: m[2]! } : undefined;
}

export function toolTitle(tool: string): string {
  const mcp = mcpParts(tool);
  if (mcp) return `${mcp.name} (MCP: ${mcp.server})`;
  return TITLES[tool] ?? tool;
}

/** "Running the tests", for the status line while the call runs. */
export function toolDoing(tool: string): string {
  const mcp = mcpParts(tool);
  if (mcp) return `Running ${mcp.name} (MCP: ${mcp.server})`;
  return DOING[tool] ?? `Running ${toolTitle(tool)}`;
}
