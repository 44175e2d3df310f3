// The transcript's checkpoint items: a step's (or a restore's) changed files with Compare and
// the Restore buttons, a note on files too large to keep, and the run's Files changed summary
// with +/− counts, each file opening the run's diff, and Undo all changes of this run.
import { TestIds, type ChangesItem, type CheckpointItem, type FileChange, type TranscriptItem } from '../src/protocol/index.js';
import { CHECKPOINT_COMPARE, CHECKPOINT_RESTORE } from './checkpoint-actions.js';
import { actionButton, h, icon } from './dom.js';
import type { ItemView } from './item-views.js';

const CHANGE_MARK: Record<FileChange, string> = { added: 'A', modified: 'M', deleted: 'D' };

export function checkpointView(item: CheckpointItem): ItemView {
  const count = `${item.files.length} file${item.files.length === 1 ? '' : 's'}`;
  const title = item.restore ? `Restored ${count}` : `Step ${item.step} changed ${count}`;
  const seq = String(item.seq);
  const compare = actionButton(CHECKPOINT_COMPARE, 'Compare this step with now', {
    text: 'Compare',
    icon: 'diff',
    testId: TestIds.checkpointCompare,
    data: { from: seq, to: seq },
  });
  const buttons = item.restore
    ? [restoreButton('Undo restore', item.seq - 1, 'files', TestIds.undoRestore)]
    : [
        restoreButton('Restore files to here', item.seq, 'files', TestIds.restoreFiles),
        restoreButton('Restore task to here', item.seq, 'task', TestIds.restoreTask),
        restoreButton('Restore both', item.seq, 'both', TestIds.restoreBoth),
      ];
  const skipped = item.files.filter((f) => f.skippedBytes !== undefined);
  return {
    el: h(
      'div',
      { class: 'item checkpoint', attrs: { 'data-testid': TestIds.checkpoint, 'data-item-id': item.id, 'data-seq': seq } },
      h('div', { class: 'checkpoint-head' }, icon(item.restore ? 'discard' : 'history'), h('span', { text: ` ${title}` })),
      h('ul', { class: 'checkpoint-files' }, ...item.files.map((f) => fileLine(f.path, f.change))),
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
      h('div', { class: 'checkpoint-actions' }, compare, ...buttons),
    ),
  };
}

function restoreButton(label: string, afterSeq: number, mode: 'files' | 'task' | 'both', testId: string): HTMLButtonElement {
  return actionButton(CHECKPOINT_RESTORE, label, {
    text: label,
    testId,
    class: 'button secondary',
    data: { after: String(afterSeq), mode },
  });
}

function fileLine(path: string, change: FileChange): HTMLElement {
  return h(
    'li',
    { attrs: { 'data-change': change } },
    h('span', { class: `change change-${change}`, text: CHANGE_MARK[change] }),
    ` ${path}`,
  );
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
        actionButton(CHECKPOINT_COMPARE, 'Compare the whole run with now', { text: 'Compare', icon: 'diff', data: range }),
        restoreButton('Undo all changes of this run', item.fromSeq - 1, 'files', TestIds.undoRun),
      ),
    );
  }
}
