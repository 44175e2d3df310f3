// Edit and resend of an earlier message, when the task changed files after it: the question (a
// modal) whether to put those files back as they were before the message, or keep them as they
// are now, before the edited message starts a new task from there. Cancel does neither.
import * as vscode from 'vscode';
import { visibleText } from '../../kernel/index.js';
import type { ForkFiles } from '../../host/session/session.js';

const RESTORE = 'Restore Files and Resend';
const KEEP = 'Keep Files and Resend';
/** Files named in the question; the rest are counted. */
const LISTED = 20;

export async function askForkFiles(paths: readonly string[]): Promise<ForkFiles | undefined> {
  const files = paths.length === 1 ? '1 file' : `${paths.length} files`;
  const listed = paths.slice(0, LISTED).map(visibleText);
  const more = paths.length > LISTED ? [`… and ${paths.length - LISTED} more`] : [];
  const pick = await vscode.window.showWarningMessage(
    `After this message the task changed ${files}. Put ${paths.length === 1 ? 'it' : 'them'} back as before the message, then resend?`,
    { modal: true, detail: [...listed, ...more].join('\n') },
    RESTORE,
    KEEP,
  );
  return pick === RESTORE ? 'restore' : pick === KEEP ? 'keep' : undefined;
}
