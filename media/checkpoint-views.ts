// The transcript's checkpoint items: a step's (or a restore's) one quiet line with its menu
// (compare, restore files, conversation or both), a note on files too large to keep, and the run's
// Files changed summary with +/− counts, each file opening the run's diff, Compare all and Undo.
import { TestIds, type ChangesItem, type CheckpointItem, type FileChange, type TranscriptItem } from '../src/protocol/index.js';
import { CHECKPOINT_COMPARE, CHECKPOINT_RESTORE } from './checkpoint-actions.js';
import { actionButton, h, icon } from './dom.js';
import type { ItemView } from './item-views.js';

const CHANGE_MARK: Record<FileChange, string> = { added: 'A', modified: 'M', deleted: 'D' };

/** Files named in a checkpoint's line; more are counted. */
const NAMED = 2;

/**
 * A step's checkpoint: one quiet line naming what changed, and one control, "Checkpoint ▾", that
 * opens what can be done there (compare with now, restore the files, the conversation, or both).
 * After each edit the transcript gains one small line, not a wall of buttons beside Approve.
 */
export function checkpointView(item: CheckpointItem): ItemView {
  const seq = String(item.seq);
  const what = namedFiles(item.files.map((f) => f.path));
  const skipped = item.files.filter((f) => f.skippedBytes !== undefined);
  const control = item.restore
    ? restoreButton('Undo restore', item.seq - 1, 'files', TestIds.undoRestore, 'button link')
    : checkpointMenu(item.seq, seq);
  return {
    el: h(
      'div',
      { class: 'item checkpoint', attrs: { 'data-testid': TestIds.checkpoint, 'data-item-id': item.id, 'data-seq': seq } },
      h(
        'div',
        { class: 'checkpoint-head' },
        icon(item.restore ? 'discard' : 'history'),
        h('span', {
          class: 'checkpoint-title',
          text: item.restore ? `Restored ${what}` : `Checkpoint · ${what}`,
          attrs: { title: fileList(item) },
        }),
        control,
      ),
      skipped.length > 0
        ? h(
            'div',
            { class: 'checkpoint-note', attrs: { role: 'note' } },
            icon('warning'),
            h('span', {
              text: ` Not kept (over the size cap, cannot be restored): ${skipped.map((f) => `${f.path} (${megabytes(f.skippedBytes!)})`).join(', ')}`,
            }),
          )
        : null,
    ),
  };
}

/** "src/a.ts", "src/a.ts, src/b.ts", "src/a.ts, src/b.ts and 3 more". */
function namedFiles(paths: readonly string[]): string {
  const named = paths.slice(0, NAMED).join(', ');
  return paths.length > NAMED ? `${named} and ${paths.length - NAMED} more` : named || 'no file';
}

function fileList(item: CheckpointItem): string {
  return item.files.map((f) => `${CHANGE_MARK[f.change]} ${f.path}`).join('\n');
}

/** The step's one control: a small menu (keyboard: Enter opens it, Tab walks it). */
function checkpointMenu(afterSeq: number, seq: string): HTMLElement {
  return h(
    'details',
    { class: 'checkpoint-menu' },
    h(
      'summary',
      { class: 'button link', attrs: { 'data-testid': TestIds.checkpointMenu, 'aria-label': 'Checkpoint: compare or restore' } },
      'Restore…',
    ),
    h(
      'div',
      { class: 'checkpoint-menu-items', attrs: { role: 'group', 'aria-label': 'Checkpoint' } },
      actionButton(CHECKPOINT_COMPARE, 'Compare this checkpoint with now', {
        text: 'Compare with now',
        testId: TestIds.checkpointCompare,
        class: 'button link',
        data: { from: seq, to: seq },
      }),
      restoreButton('Restore the files to here', afterSeq, 'files', TestIds.restoreFiles),
      restoreButton('Restore the conversation to here (a new task)', afterSeq, 'task', TestIds.restoreTask),
      restoreButton('Restore the files and the conversation', afterSeq, 'both', TestIds.restoreBoth),
    ),
  );
}

function restoreButton(
  label: string,
  afterSeq: number,
  mode: 'files' | 'task' | 'both',
  testId: string,
  cls = 'button link',
): HTMLButtonElement {
  return actionButton(CHECKPOINT_RESTORE, label, {
    text: label,
    testId,
    class: cls,
    data: { after: String(afterSeq), mode },
  });
}

function undoneButton(): HTMLButtonElement {
  const button = h('button', {
    class: 'button secondary',
    text: 'Changes undone',
    attrs: { type: 'button', 'data-testid': TestIds.undoRun },
  });
  button.disabled = true;
  return button;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Files changed: rebuilt in place when the host sends the line counts. */
export class ChangesView implements ItemView {
  readonly el: HTMLElement;

  constructor(item: ChangesItem) {
    this.el = h('div', { class: 'item changes', attrs: { 'data-testid': TestIds.filesChanged, 'data-item-id': item.id } });
    this.draw(item);
  }

  update(item: TranscriptItem): void {
    if (item.kind === 'changes') this.draw(item);
  }

  private draw(item: ChangesItem): void {
    const range = { from: String(item.fromSeq), to: String(item.toSeq) };
    this.el.replaceChildren(
      h('div', { class: 'changes-head' }, icon('files'), h('span', { text: ` Files changed (${item.files.length})` })),
      h(
        'ul',
        { class: 'changes-files' },
        ...item.files.map((f) =>
          h(
            'li',
            { attrs: { 'data-change': f.change } },
            actionButton(CHECKPOINT_COMPARE, `Compare ${f.path} with how it was before this run`, {
              text: f.path,
              testId: TestIds.filesChangedFile,
              class: 'button link',
              data: { ...range, path: f.path },
            }),
            f.added === undefined ? null : h('span', { class: 'lines-added', text: ` +${f.added}` }),
            f.removed === undefined ? null : h('span', { class: 'lines-removed', text: ` −${f.removed}` }),
          ),
        ),
      ),
      h(
        'div',
        { class: 'checkpoint-actions' },
        actionButton(CHECKPOINT_COMPARE, 'Compare the whole run with now', { text: 'Compare all', class: 'button link', data: range }),
        // Once undone, the button would undo nothing: it says so and takes no click.
        item.undone ? undoneButton() : restoreButton('Undo all changes of this run', item.fromSeq - 1, 'files', TestIds.undoRun),
      ),
    );
  }
}
