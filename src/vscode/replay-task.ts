// Keel: Replay Task — picks a task from this workspace's history and replays its log through
// the current build (src/compose/replay, the same code as `keel replay`) in a temporary copy of
// the workspace put back to the task's starting state from the checkpoints. The comparison
// opens as a read-only markdown report (`keel-replay:`); the user's folder is only read.
import * as vscode from 'vscode';
import { replayInCopy, reportMarkdown } from '../host/replay/replay-report.js';
import type { KeelSettings } from '../host/settings/settings.js';
import type { TaskStore } from '../host/tasks/task-store.js';

export const REPLAY_SCHEME = 'keel-replay';

export class ReplayReports implements vscode.TextDocumentContentProvider {
  private readonly reports = new Map<string, string>();

  add(name: string, markdown: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: REPLAY_SCHEME, path: `/${name}.md`, query: String(this.reports.size) });
    this.reports.set(uri.toString(), markdown);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.reports.get(uri.toString()) ?? '';
  }
}

export interface ReplayTaskDeps {
  tasks: TaskStore;
  root: string | undefined;
  settings(): KeelSettings;
  read(hash: string): Promise<Uint8Array | undefined>;
  reports: ReplayReports;
}

export async function replayTask(d: ReplayTaskDeps): Promise<void> {
  if (d.root === undefined) return void vscode.window.showInformationMessage('Keel: open a folder to replay its tasks.');
  const pick = await vscode.window.showQuickPick(
    d.tasks.list().map((t) => ({ label: t.title, description: new Date(t.updatedAt).toLocaleString(), id: t.id })),
    { title: 'Keel: Replay Task', placeHolder: 'The task to replay through the current build' },
  );
  if (!pick) return;
  const events = (await d.tasks.get(pick.id)).getEvents();
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Keel: replaying "${pick.label}"…` },
    () => {
      const s = d.settings();
      const policy = {
        autoApprove: s.autoApprove,
        approveUnclassified: false,
        commandsAllow: s.commandsAllow,
        commandsDeny: s.commandsDeny,
      };
      return replayInCopy(events, d.root!, d.read, policy);
    },
  );
  const uri = d.reports.add(`Replay of ${pick.label.replace(/[\\/]/g, ' ')}`, reportMarkdown(pick.label, report));
  await vscode.commands.executeCommand('markdown.showPreview', uri).then(undefined, async () => {
    await vscode.window.showTextDocument(uri, { preview: false });
  });
}
