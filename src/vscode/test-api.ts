// What `activate` returns in a test build: enough for integration tests to drive Keel inside a
// real VS Code. A production build returns nothing, so no other extension can reach Keel's
// session, approvals or provider (`vscode.extensions.getExtension('keel-dev.keel').exports`).
// esbuild.mjs defines KEEL_TEST_API (true only with --test-api), read in extension.ts.
import type { ModelProvider } from '../kernel/index.js';
import type { DiffApprovals } from './edits/diff-approvals.js';
import type { KeelTerminal } from './workspace/keel-terminal.js';
import type { ProposedContentProvider } from './edits/proposed-content.js';
import type { Session } from '../host/session/session.js';
import type { KeelSettings } from '../host/settings/settings.js';
import type { WorkspaceSettingsGuard } from './settings-guard.js';
import type { TaskRuntime } from '../host/tasks/task.js';
import type { TaskStore } from '../host/tasks/task-store.js';
import type { VscodeWorkspace } from './workspace/vscode-workspace.js';
import type { SkillsView } from './views/skills-view.js';

export interface KeelApi {
  tasks: TaskStore;
  session: Session;
  diffs: DiffApprovals;
  content: ProposedContentProvider;
  terminal: KeelTerminal;
  /** The Workspace port on VS Code (undefined without a folder). */
  workspace: VscodeWorkspace | undefined;
  rgPath: string | undefined;
  /** The runtime of the task shown in the view. */
  getRuntime(): TaskRuntime | undefined;
  /** Tests: new tasks run on this provider instead of the configured one. */
  setProviderOverride(fn: ((settings: KeelSettings) => ModelProvider | undefined) | undefined): void;
  /** The settings a new task is built from (user-only ones never from the workspace). */
  settings(): KeelSettings;
  /** The notices naming user-only settings a workspace tried to set. */
  workspaceSettings: Pick<WorkspaceSettingsGuard, 'notices' | 'check' | 'ignored'>;
  /** The Skills view's tree. */
  skills: Pick<SkillsView, 'getChildren'>;
}
