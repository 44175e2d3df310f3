// The core of Keel: Replay Task without the editor: replay a task's log through the current
// build in a temporary copy of its workspace put back to the task's starting state from the
// checkpoints (src/compose/replay, as `keel replay` does), and write
// the comparison as markdown. The user's folder is only read. No vscode import.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RuntimeEvent } from '../../kernel/index.js';
import { replayLog, type ReplayPolicySettings, type ReplayReport } from '../../compose/replay/replay.js';
import { startFromCheckpoints } from '../../compose/replay/replay-start.js';

export async function replayInCopy(
  events: readonly RuntimeEvent[],
  root: string,
  read: (hash: string) => Promise<Uint8Array | undefined>,
  policy: ReplayPolicySettings,
): Promise<ReplayReport> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-replay-'));
  try {
    const work = path.join(scratch, 'workspace');
    await startFromCheckpoints(events, () => ({ read }), root, work);
    return await replayLog(events, work, Number.POSITIVE_INFINITY, policy);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The comparison as markdown; recorded and replayed texts in fenced blocks (they are data). */
export function reportMarkdown(title: string, report: ReplayReport): string {
  const cut = report.interrupted.map(
    (c) => `- Step ${c.step}${inFrame(c.frameName)} · \`${c.tool}\` (seq ${c.seq}): interrupted in the recording, not compared`,
  );
  const notRun = report.notRun.map(
    (c) => `- Step ${c.step}${inFrame(c.frameName)} · \`${c.tool}\` (seq ${c.seq}): not run, no sandbox here, not compared`,
  );
  const sandbox =
    report.sandbox.type === 'ready'
      ? ''
      : `No sandbox here (${report.sandbox.reason}): a replay runs commands only in the sandbox, so none ran.\n\n`;
  const listed = [...cut, ...notRun];
  const head = `# Replay of “${title}”\n\n${report.steps} steps, ${report.calls} tool calls, replayed through the current build.\n\n${sandbox}${listed.length ? `${listed.join('\n')}\n\n` : ''}`;
  if (report.differences.length === 0) return `${head}**Replays clean**: every step behaves as recorded.\n`;
  const rows = report.differences.map((x) =>
    [
      `## Step ${x.step}${inFrame(x.frameName)} · ${x.kind} · \`${x.tool}\` (seq ${x.seq})`,
      'Recorded:',
      fenced(x.recorded),
      'Replayed:',
      fenced(x.replayed),
    ].join('\n\n'),
  );
  return `${head}**${report.differences.length} difference(s)**\n\n${rows.join('\n\n')}\n`;
}

/** A sub-agent's name holds the model's brief: shown as code, never as markdown. */
function inFrame(name: string | undefined): string {
  return name === undefined ? '' : ` of \`${name.replace(/`/g, "'")}\``;
}

function fenced(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text.length > 4000 ? `${text.slice(0, 4000)}\n…` : text}\n${fence}`;
}
