// The second build step: what the open folder brings — the Workspace port (ripgrep, the
// sandbox), memory, the skills, MCP servers and A2A agents, and the checkpoint store.
import * as vscode from 'vscode';
import type { KeelSettings } from '../../host/settings/settings.js';
import { readCheckpointCaps } from '../../host/settings/checkpoint-settings.js';
import { TaskCheckpoints } from '../../host/tasks/task-checkpoints.js';
import { sweepStaleTemps } from '../../compose/index.js';
import { userSkillFolder, userSkillsDir } from '../../node/skill-folder.js';
import { createHostWorkspace, type HostWorkspace } from '../workspace/host-workspace.js';
import type { VscodeWorkspace } from '../workspace/vscode-workspace.js';
import { openExtensionMemory } from '../memory/memory-view.js';
import { SkillsView } from '../views/skills-view.js';
import { startMcp } from '../mcp/mcp-view.js';
import { startA2a } from '../mcp/a2a-agents.js';
import type { Base } from './base.js';
import { checkpointsFolder } from './homes.js';

export interface FolderParts {
  host: HostWorkspace | undefined;
  /** The Workspace port on VS Code (undefined without a folder, or when the folder cannot be used). */
  workspace: VscodeWorkspace | undefined;
  memory: ReturnType<typeof openExtensionMemory>;
  userSkills: ReturnType<typeof userSkillFolder>;
  skillsView: SkillsView;
  mcp: ReturnType<typeof startMcp>;
  a2a: ReturnType<typeof startA2a>;
  checkpoints: TaskCheckpoints;
  /** The index's file watcher, MCP servers and A2A agents: registered by the last step. */
  disposables: vscode.Disposable[];
}

export async function buildFolder(context: vscode.ExtensionContext, base: Base): Promise<FolderParts> {
  const { folder, log, settings, keys } = base;
  const host = folder
    ? await createHostWorkspace(
        folder.uri,
        base.terminal,
        (m) => log.info(m),
        () => keys.held(),
        sandboxNotice(settings, log),
        () => settings().commandsPassEnv,
        () => settings().webAllowHosts,
      ).catch((error: unknown) => {
        log.error(`Keel cannot use the folder ${folder.uri.fsPath}: ${String(error)}`);
        return undefined;
      })
    : undefined;
  const workspace = host?.workspace;
  const memory = openExtensionMemory(context, workspace?.root, log);
  // The user's skills: the folder `keel run` reads, so both hosts load the same skills.
  const userSkills = userSkillFolder(userSkillsDir());
  const skillsView = new SkillsView({ workspace, folder, user: userSkills, trusted: () => vscode.workspace.isTrusted });
  const mcp = startMcp({
    context,
    workspaceRoot: workspace?.root,
    secrets: () => keys.known(),
    passEnv: () => settings().commandsPassEnv,
    riskOverrides: () => settings().mcpRisk,
    log,
    ...(host?.sandbox ? { sandbox: { support: host.sandbox, mode: () => settings().sandbox } } : {}),
  });
  const a2a = startA2a({ context, workspaceRoot: workspace?.root, log });
  const checkpoints = await openCheckpoints(context, base, workspace);
  const disposables = [...(host?.disposables ?? []), ...mcp.disposables, ...a2a.disposables];
  return { host, workspace, memory, userSkills, skillsView, mcp, a2a, checkpoints, disposables };
}

async function openCheckpoints(
  context: vscode.ExtensionContext,
  base: Base,
  workspace: VscodeWorkspace | undefined,
): Promise<TaskCheckpoints> {
  const { log } = base;
  const storageDir = await checkpointsFolder(context, base.folder?.uri, (m) => log.info(m));
  // Temporary files a crashed write left (this window's or another's) are removed, never listed.
  if (workspace)
    void sweepStaleTemps(workspace.root, [storageDir]).then((removed) => {
      if (removed.length > 0) log.info(`removed ${removed.length} temporary file(s) a crashed write left: ${removed.join(', ')}`);
    });
  return new TaskCheckpoints({
    storageDir,
    root: workspace?.root,
    caps: () => readCheckpointCaps((k) => vscode.workspace.getConfiguration('keel').get(k)),
    warn: (m) => log.warn(m),
  });
}

/** Said once a window: there is no OS sandbox here (unless the user turned it off), so commands ask. */
function sandboxNotice(settings: () => KeelSettings, log: { warn(m: string): void }): (reason: string) => void {
  let said = false;
  return (reason) => {
    const message = `Keel has no sandbox for commands: ${reason}. Every command asks before it runs (keel.sandbox).`;
    log.warn(message);
    if (said || settings().sandbox === 'off') return;
    said = true;
    void vscode.window.showWarningMessage(message);
  };
}
