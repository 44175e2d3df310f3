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
  /** The tab is the diff of the proposal being settled. */
  diff?: boolean;
}

/** What settling a proposal does to the editor: where the file is shown, and which groups close. */
export interface AfterDecision {
  /** The group to show the edited file in; undefined: nowhere (not landed, or open already). */
  showIn: number | undefined;
  /** The groups that held only the diff: closed with it (VS Code may keep an empty group). */
  closeGroups: number[];
}

/**
 * After a decision: the diff's tabs close, the groups they leave empty close too (never every
 * group), and a landed edit's file is shown where no second tab of it appears.
 */
export function afterDecision(tabs: readonly OpenTab[], file: string, landed: boolean): AfterDecision {
  const diffGroups = [...new Set(tabs.filter((t) => t.diff).map((t) => t.group))];
  const first = diffGroups[0];
  const others = tabs.filter((t) => !t.diff);
  const showIn = landed && first !== undefined ? fileGroupAfterDiff(others, first, file) : undefined;
  const emptied = diffGroups.filter((g) => g !== showIn && !others.some((t) => t.group === g));
  const groups = new Set(tabs.map((t) => t.group));
  // One group always stays: the workbench has at least one, and the file may go nowhere else.
  const closeGroups = emptied.length >= groups.size && showIn === undefined ? emptied.slice(1) : emptied;
  return { showIn, closeGroups };
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
