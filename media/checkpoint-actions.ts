// The checkpoint buttons' messages: Compare (a step or a run against now) and Restore (files,
// task, both) read their seqs from the button's data attributes; anything malformed sends nothing.
import type { RestoreMode, WebviewMessage } from '../src/protocol/index.js';

export const CHECKPOINT_COMPARE = 'checkpoint-compare';
export const CHECKPOINT_RESTORE = 'checkpoint-restore';

const MODES = new Set<RestoreMode>(['files', 'task', 'both']);

/** The message a checkpoint button stands for, or undefined for any other element. */
export function checkpointMessage(el: HTMLElement): WebviewMessage | undefined {
  const data = el.dataset;
  if (data.action === CHECKPOINT_COMPARE) {
    const fromSeq = seqOf(data.from);
    const toSeq = seqOf(data.to);
    if (fromSeq === undefined || toSeq === undefined) return undefined;
    return { type: 'checkpoint/compare', fromSeq, toSeq, ...(data.path === undefined ? {} : { path: data.path }) };
  }
  if (data.action === CHECKPOINT_RESTORE) {
    const afterSeq = seqOf(data.after);
    const mode = data.mode as RestoreMode;
    if (afterSeq === undefined || !MODES.has(mode)) return undefined;
    return { type: 'checkpoint/restore', afterSeq, mode };
  }
  return undefined;
}

function seqOf(text: string | undefined): number | undefined {
  const n = Number(text);
  return text !== undefined && text !== '' && Number.isInteger(n) && n >= 0 ? n : undefined;
}
