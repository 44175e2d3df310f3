// The third build step: the runtime factory, the task store on disk and the task locks. What
// they tell the session (a status, a request, a key-host question) goes through its links.
import * as vscode from 'vscode';
import type { ModelProvider } from '../../kernel/index.js';
import type { KeelSettings } from '../../host/settings/settings.js';
import { JsonlLogStore, loadLog } from '../../node/jsonl-store.js';
import { RuntimeFactory } from '../../host/runtime/runtime-factory.js';
import { EditPreviews } from '../../host/edits/edit-plans.js';
import { TaskStore, type TaskLogFiles } from '../../host/tasks/task-store.js';
import { processAlive, TaskLocks } from '../../host/tasks/task-lock.js';
import { KeyHostApprovals, keyQuestion } from '../../host/keys/key-destination.js';
import { describeSkillProblem } from '../../compose/index.js';
import { userAgentsDir, userCommandsDir, userSkillFolder } from '../../node/skill-folder.js';
import { WorkspaceGrantStore } from '../grant-store.js';
import { keelConfigDir } from '../../node/config-folder.js';
import { hookApproval } from '../../host/settings/hook-approval.js';
import { workspaceApprovals } from '../edits/approval-modal.js';

/** The hashes of the workspace hook definitions the user allowed (per workspace). */
const HOOKS_APPROVED_STATE = 'keel.hooks.approved';
import type { Base } from './base.js';
import type { FolderParts } from './folder.js';
import type { SessionLinks } from './session-links.js';
import { tasksFolder } from './homes.js';

/** Global state: the hosts the user agreed to send an API key to (`<provider> <origin>`). */
const KEY_HOSTS_STATE = 'keel.keyHosts';
const SEND_KEY = 'Send Key';
/** A task's lock is taken over after this long without a heartbeat (its window hung or died). */
const LOCK_STALE_MS = 30_000;
const LOCK_HEARTBEAT_MS = 10_000;

type ProviderOverride = (settings: KeelSettings) => ModelProvider | undefined;

/** Tests: new tasks run on this provider instead of the configured one (none: the configured one). */
class ProviderSwitch {
  private override: ProviderOverride | undefined;

  set(override: ProviderOverride | undefined): void {
    this.override = override;
  }

  get active(): boolean {
    return this.override !== undefined;
  }

  provider(settings: KeelSettings): ModelProvider | undefined {
    return this.override?.(settings);
  }
}

export interface TaskParts {
  factory: RuntimeFactory;
  /** An edit's diff and the call that writes it share one plan (host/edits/edit-plans.ts). */
  previews: EditPreviews;
  tasks: TaskStore;
  locks: TaskLocks;
  providers: ProviderSwitch;
  /** Stops the lock heartbeat and releases this window's locks. */
  releaseLocks: vscode.Disposable;
}

export async function buildTasks(
  context: vscode.ExtensionContext,
  base: Base,
  parts: FolderParts,
  links: SessionLinks,
): Promise<TaskParts> {
  const { log } = base;
  const providers = new ProviderSwitch();
  const previews = new EditPreviews();
  const factory = runtimeFactory(context, base, parts, links, { providers, previews });
  const dir = await tasksFolder(context, base.folder?.uri, (m) => log.info(m));
  const tasks = new TaskStore({
    dir,
    logs: taskLogFiles((m) => log.warn(m)),
    createRuntime: (init) => factory.create(init),
    onStatus: (task, status) => {
      if (status === 'failed') log.warn(`task ${task.id} failed: ${task.getState().lastError?.message ?? 'unknown error'}`);
      links.status.call(task, status);
    },
    onCrash: (task, error) => log.error(`task ${task.id} crashed`, error instanceof Error ? (error.stack ?? error.message) : String(error)),
  });
  await tasks.init().catch((error: unknown) => log.error(`Keel could not read its task history: ${String(error)}`));
  // One window drives a task at a time: the lock beside its log, refreshed while this window runs.
  const locks = new TaskLocks({
    dir,
    self: { pid: process.pid, window: vscode.env.sessionId },
    staleMs: LOCK_STALE_MS,
    now: () => Date.now(),
    isAlive: processAlive,
  });
  const heartbeat = setInterval(() => void locks.beat(), LOCK_HEARTBEAT_MS);
  const releaseLocks = {
    dispose: () => {
      clearInterval(heartbeat);
      void locks.releaseAll();
    },
  };
  return { factory, previews, tasks, locks, providers, releaseLocks };
}

function runtimeFactory(
  context: vscode.ExtensionContext,
  base: Base,
  parts: FolderParts,
  links: SessionLinks,
  { providers, previews }: { providers: ProviderSwitch; previews: EditPreviews },
): RuntimeFactory {
  const { keys, log, settings } = base;
  const keyHosts = new KeyHostApprovals(
    { get: () => context.globalState.get<string[]>(KEY_HOSTS_STATE) ?? [], set: (v) => context.globalState.update(KEY_HOSTS_STATE, v) },
    async (destination) => {
      const { message, detail } = keyQuestion(destination);
      const ask = () => vscode.window.showWarningMessage(message, { modal: true, detail }, SEND_KEY);
      return ((await links.asking.call(message, ask)) ?? undefined) === SEND_KEY;
    },
  );
  return new RuntimeFactory({
    mcp: parts.mcp.hub,
    a2a: () => parts.a2a.agents(),
    skills: {
      user: parts.userSkills,
      report: (problems) => {
        for (const p of problems) log.warn(`skipped a skill: ${describeSkillProblem(p)}`);
      },
    },
    customAgents: {
      user: userSkillFolder(userAgentsDir()),
      report: (problems) => {
        for (const p of problems) log.warn(`skipped a custom agent: ${describeSkillProblem(p)}`);
      },
    },
    commands: {
      user: userSkillFolder(userCommandsDir()),
      report: (problems) => {
        for (const p of problems) log.warn(`skipped a command: ${describeSkillProblem(p)}`);
      },
    },
    hooks: {
      user: userSkillFolder(keelConfigDir()),
      allowWorkspace: hookApproval(workspaceApprovals(context, HOOKS_APPROVED_STATE)),
      report: (problems) => {
        for (const p of problems) log.warn(`skipped a hook: ${describeSkillProblem(p)}`);
      },
    },
    settings,
    workspace: parts.workspace,
    grants: new WorkspaceGrantStore(context.workspaceState),
    trusted: () => vscode.workspace.isTrusted,
    lookupKey: (s) => keys.lookup(s),
    allowKeyDestination: (destination) => keyHosts.allowed(destination),
    secrets: () => keys.known(),
    onRequest: (taskId, request) => links.request.call(taskId, request),
    providerOverride: (s) => providers.provider(s),
    checkpoints: (taskId) => parts.checkpoints.forTask(taskId),
    memory: parts.memory?.store,
    previews,
  });
}

/** Task logs on disk; damaged lines are reported in Keel's log, the rest loads. */
function taskLogFiles(warn: (message: string) => void): TaskLogFiles {
  return {
    load: async (file) => {
      try {
        const loaded = loadLog(file);
        for (const p of [...(loaded.torn ? [loaded.torn] : []), ...loaded.invalid])
          warn(`${file}:${p.line} was left out of the task (${p.reason})`);
        return loaded.events;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    },
    open: async (file) => JsonlLogStore.open(file),
  };
}
