// The editor's diff tabs, as the user meets them: what a checkpoint comparison is titled (in the
// words the transcript shows — a checkpoint, this run — never a step number, which the view shows
// nowhere) and where a proposal's file goes when its diff closes (never a second tab of the same
// file, so the side group the diff opened in closes with it). Pure: no vscode import.
import * as path from 'node:path';

/** The title of "Compare with now": one checkpoint's files, or the whole run. */
export function compareTitle(files: readonly string[], wholeRun: boolean): string {
  if (wholeRun || files.length === 0) return 'Keel: before this run ↔ now';
  const names = files.map((f) => path.posix.basename(f));
  const named = names.length <= 2 ? names.join(', ') : `${names[0]} and ${names.length - 1} more`;
  return `Keel: ${named} at the checkpoint ↔ now`;
}

/** An open tab: its group (view column) and the file it shows (undefined: a diff or anything else). */
export interface OpenTab {
  group: number;
  file: string | undefined;
}

/**
 * The group to show an edited file in when its diff closes after the edit landed: none when a
 * tab of the file is open already (it shows the edit; a second tab in the diff's group would
 * keep that side group open with the same file twice); else the group the diff was opened
 * beside, and the diff's own group only when it is the only one.
 */
export function fileGroupAfterDiff(tabs: readonly OpenTab[], diffGroup: number, file: string): number | undefined {
  if (tabs.some((t) => t.file === file)) return undefined;
  return tabs.find((t) => t.group !== diffGroup)?.group ?? diffGroup;
}
