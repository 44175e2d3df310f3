// The extension's MCP servers: the hub over the user's Keel mcp.json (the file `keel run`
// reads) and the workspace's .vscode/mcp.json, and the MCP Servers tree in the Keel view
// container: each server's state (with its stderr tail), its tools and those left out, and
// Approve / Enable / Disable / Restart. A workspace server starts only in a trusted workspace
// and only once the user has approved its exact definition (remembered per workspace by hash:
// the gate in workspace-approvals.ts, which the workspace's A2A agents pass too). With no server
// the view's welcome says how to add one, and Add MCP Server opens the file to add it in.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { createMcpHub, loadMcpConfigs, type McpHubInput, mcpFiles } from '../../compose/index.js';
import type { McpRiskOverrides } from '../../mcp/index.js';
import { definitionKey, type McpHub, type McpServerConfig, type McpServerStatus } from '../../mcp/index.js';
import { workspaceApprovals } from '../edits/approval-modal.js';

const APPROVED_STATE = 'keel.mcp.approved';
const DISABLED_STATE = 'keel.mcp.disabled';
const APPROVE = 'Allow and Start';

interface McpDeps {
  context: vscode.ExtensionContext;
  workspaceRoot: string | undefined;
  secrets(): readonly string[];
  /** Inherited variables passed though they look like credentials (keel.commands.passEnv). */
  passEnv(): readonly string[];
  riskOverrides(): McpRiskOverrides;
  log: { info(m: string): void; warn(m: string): void };
  /** The workspace's OS sandbox: a server the user marked read-only starts in it. */
  sandbox?: McpHubInput['sandbox'];
}

/** The hub and the view; the servers start in the background. */
export function startMcp(d: McpDeps): { hub: McpHub; reload(): Promise<void>; disposables: vscode.Disposable[] } {
  const config = readConfigs(d);
  const approvals = workspaceApprovals(d.context, APPROVED_STATE);
  const hub = createMcpHub(config.servers, {
    cwd: d.workspaceRoot,
    secrets: d.secrets,
    passEnv: d.passEnv,
    riskOverrides: d.riskOverrides,
    disabled: d.context.globalState.get<string[]>(DISABLED_STATE) ?? [],
    mayStart: (c) => c.source === 'user' || approvals.allows(definitionKey(c)),
    ...(d.sandbox ? { sandbox: d.sandbox } : {}),
  });
  hub.onNotice((n) => {
    d.log.warn(`MCP server "${n.server}": ${n.message}`);
    void vscode.window.showWarningMessage(`Keel: MCP server "${n.server}": ${n.message}`);
  });
  const tree = new McpTree(hub);
  const find = (item: unknown) => hub.configs().find((c) => c.name === (item as ServerItem | undefined)?.status?.name);
  const setDisabled = async (name: string, off: boolean) => {
    const now = new Set(d.context.globalState.get<string[]>(DISABLED_STATE) ?? []);
    if (off) now.add(name);
    else now.delete(name);
    await d.context.globalState.update(DISABLED_STATE, [...now]);
    await hub.setEnabled(name, !off);
  };
  const approve = async (c: McpServerConfig | undefined) => {
    if (c?.source !== 'workspace') return;
    const allowed = await approvals.ask(definitionKey(c), {
      message: `Allow the workspace's MCP server "${c.name}" to run on this machine?`,
      detail: `${c.file} asks Keel to start:\n\n${hub.status().find((s) => s.name === c.name)?.line}\n\nYou are asked again if its definition changes.`,
      accept: APPROVE,
      untrusted: 'Keel starts MCP servers a workspace defines only once you trust the workspace.',
    });
    if (allowed) await hub.restart(c.name);
  };
  const disposables = [
    vscode.window.registerTreeDataProvider('keel.mcpServers', tree),
    tree,
    vscode.commands.registerCommand('keel.mcp.addServer', () => openConfigToAdd(mcpFiles(d.workspaceRoot))),
    vscode.commands.registerCommand('keel.mcp.approve', (item) => approve(find(item))),
    vscode.commands.registerCommand('keel.mcp.restart', (item) => find(item) && hub.restart(find(item)!.name)),
    vscode.commands.registerCommand('keel.mcp.enable', (item) => find(item) && setDisabled(find(item)!.name, false)),
    vscode.commands.registerCommand('keel.mcp.disable', (item) => find(item) && setDisabled(find(item)!.name, true)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void hub.startAll()),
    { dispose: () => void hub.dispose() },
  ];
  void hub.startAll().then(() => {
    const waiting = hub.status().filter((s) => s.state === 'awaiting_approval');
    if (waiting.length > 0)
      d.log.info(`MCP: the workspace defines ${waiting.map((s) => s.name).join(', ')}; approve in the MCP Servers view to start.`);
  });
  // An mcp.json edited, added or deleted (the library watcher): servers follow without a reload.
  const reload = () => hub.reconfigure(readConfigs(d).servers);
  return { hub, reload, disposables };
}

/** The servers the config files define now; a file's problems are told to the user. */
function readConfigs(d: McpDeps): ReturnType<typeof loadMcpConfigs> {
  const config = loadMcpConfigs(mcpFiles(d.workspaceRoot));
  for (const p of config.problems) {
    const where = `${p.file}${p.server ? ` (server "${p.server}")` : ''}`;
    d.log.warn(`MCP config ${where}: ${p.message}`);
    void vscode.window.showWarningMessage(`Keel: the MCP server config ${where} has a problem: ${p.message}`);
  }
  return config;
}

interface ServerItem {
  kind: 'server';
  status: McpServerStatus;
}
interface DetailItem {
  kind: 'detail';
  label: string;
  description?: string;
  tooltip?: string;
}
type Item = ServerItem | DetailItem;

const STATE_ICON: Record<McpServerStatus['state'], string> = {
  ready: 'pass',
  starting: 'loading~spin',
  failed: 'error',
  disabled: 'circle-slash',
  awaiting_approval: 'shield',
  stopped: 'debug-stop',
};

class McpTree implements vscode.TreeDataProvider<Item>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly unsubscribe: () => void;

  constructor(private readonly hub: McpHub) {
    this.unsubscribe = hub.onChange(() => this.emitter.fire());
  }

  getChildren(item?: Item): Item[] {
    if (!item) return this.hub.status().map((status) => ({ kind: 'server', status }));
    if (item.kind !== 'server') return [];
    const s = item.status;
    const rows: DetailItem[] = [];
    for (const t of s.tools)
      rows.push({ kind: 'detail', label: t.name, ...(t.readOnlyHint ? { description: 'server says read-only' } : {}) });
    for (const t of s.skipped) rows.push({ kind: 'detail', label: t.tool, description: 'left out', tooltip: t.reason });
    if (s.stderrTail.trim()) rows.push({ kind: 'detail', label: 'stderr', description: lastLine(s.stderrTail), tooltip: s.stderrTail });
    return rows;
  }

  getTreeItem(item: Item): vscode.TreeItem {
    if (item.kind === 'detail') {
      const row = new vscode.TreeItem(item.label);
      row.description = item.description;
      row.tooltip = item.tooltip;
      return row;
    }
    const s = item.status;
    const row = new vscode.TreeItem(s.name, vscode.TreeItemCollapsibleState.Collapsed);
    row.description = s.state === 'awaiting_approval' ? 'needs your approval' : s.state;
    row.iconPath = new vscode.ThemeIcon(STATE_ICON[s.state]);
    row.tooltip = [s.line, `from ${s.file}`, s.error, s.stderrTail ? `stderr:\n${s.stderrTail.slice(-800)}` : '']
      .filter(Boolean)
      .join('\n');
    row.contextValue = `mcpServer.${s.state}${s.source === 'workspace' ? '.workspace' : ''}`;
    return row;
  }

  dispose(): void {
    this.unsubscribe();
    this.emitter.dispose();
  }
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').pop() ?? '';
}

/** What a new config file starts as: the shape the view's welcome names, a server to fill in. */
const NEW_CONFIG = '{\n  "servers": {\n  }\n}\n';

/** Opens the workspace's mcp.json (else the user's), created empty first when there is none. */
async function openConfigToAdd(files: readonly { path: string; source: string }[]): Promise<void> {
  const file = (files.find((f) => f.source === 'workspace') ?? files[0])!.path;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, NEW_CONFIG, { flag: 'wx' });
  }
  await vscode.window.showTextDocument(vscode.Uri.file(file));
  void vscode.window.showInformationMessage(
    'Keel: add a server under "servers", e.g. "files": { "type": "stdio", "command": "npx", "args": ["-y", "<package>"] }. A workspace server starts once you approve it.',
  );
}
