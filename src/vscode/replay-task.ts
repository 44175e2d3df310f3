// Keel: Replay Task — picks a task from this workspace's history and replays its log through
// the current build (src/cli/replay.ts, the same code as `keel replay`) in a temporary copy of
// the workspace put back to the task's starting state from the checkpoints. The comparison
// opens as a read-only markdown report (`keel-replay:`); the user's folder is only read.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RuntimeEvent } from '../kernel/index.js';
import { replayLog, type ReplayReport } from '../cli/replay.js';
import { startFromCheckpoints } from '../cli/replay-start.js';
import type { KeelSettings } from './settings.js';
import type { TaskStore } from './task-store.js';

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
    () => replayInCopy(events, d.root!, d),
  );
  const uri = d.reports.add(`Replay of ${pick.label.replace(/[\\/]/g, ' ')}`, reportMarkdown(pick.label, report));
  await vscode.commands.executeCommand('markdown.showPreview', uri).then(undefined, async () => {
    await vscode.window.showTextDocument(uri, { preview: false });
  });
}

async function replayInCopy(events: readonly RuntimeEvent[], root: string, d: ReplayTaskDeps): Promise<ReplayReport> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-replay-'));
  try {
    const work = path.join(scratch, 'workspace');
    await startFromCheckpoints(events, () => ({ read: d.read }), root, work);
    const s = d.settings();
    return await replayLog(events, work, Number.POSITIVE_INFINITY, {
      autoApprove: s.autoApprove,
      approveUnclassified: false,
      commandsAllow: s.commandsAllow,
      commandsDeny: s.commandsDeny,
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The comparison as markdown; recorded and replayed texts in fenced blocks (they are data). */
function reportMarkdown(title: string, report: ReplayReport): string {
  const head = `# Replay of “${title}”\n\n${report.steps} steps, ${report.calls} tool calls, replayed through the current build.\n\n`;
  if (report.differences.length === 0) return `${head}**Replays clean**: every step behaves as recorded.\n`;
  const rows = report.differences.map((x) =>
    [`## Step ${x.step} · ${x.kind} · \`${x.tool}\` (seq ${x.seq})`, 'Recorded:', fenced(x.recorded), 'Replayed:', fenced(x.replayed)].join(
      '\n\n',
    ),
  );
  return `${head}**${report.differences.length} difference(s)**\n\n${rows.join('\n\n')}\n`;
}

function fenced(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text.length > 4000 ? `${text.slice(0, 4000)}\n…` : text}\n${fence}`;
}
