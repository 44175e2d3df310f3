// The card of an Apply (a code block from an answer applied to a file): it waits in the
// transcript with Approve / Reject while the diff is open, like an agent's edit, instead of a
// notification that hides itself after a few seconds while the diff stays pending. Its buttons
// (and the approval keys) decide the same review as the diff editor's own. The card is the view's
// alone: an Apply is not part of the task's log. No vscode: unit-tested.
import type { IntentItem, IntentPatch, TranscriptItem } from '../../protocol/index.js';

/** What the cards need of the presenter showing the task. */
export interface CardSink {
  addItem(item: TranscriptItem): void;
  updateIntent(id: string, patch: IntentPatch): void;
}

export interface ApplyCardText {
  rel: string;
  /** What replaces what, e.g. "Replace lines 11–13 of src/price.js with the code block". */
  summary: string;
  /** Why it asks (a protected path says so). */
  reason: string;
}

export type ApplyEnd = { type: 'applied' } | { type: 'rejected' } | { type: 'failed'; reason: string };

/** Tool name of an Apply card: its title in the view ("Apply a code block"). */
const APPLY_TOOL = 'apply_code';

export class ApplyCards {
  private readonly waiting = new Map<string, (approve: boolean) => void>();

  constructor(private readonly sink: () => CardSink) {}

  /** Shows a waiting card; `decide` is called with the user's answer from the card or the keys. */
  open(id: string, text: ApplyCardText, decide: (approve: boolean) => void): void {
    const card: IntentItem = {
      kind: 'intent',
      id,
      tool: APPLY_TOOL,
      summary: text.summary,
      risk: 'write',
      status: 'awaiting_approval',
      paths: [text.rel],
      approvalReason: text.reason,
    };
    this.waiting.set(id, decide);
    this.sink().addItem(card);
  }

  /** An answer from the view; false when `id` is no Apply card waiting (then it is the task's). */
  decide(id: string, approve: boolean): boolean {
    const decide = this.waiting.get(id);
    if (!decide) return false;
    this.waiting.delete(id);
    decide(approve);
    return true;
  }

  /** The review ended (card, diff, or the diff closed): the card says how. */
  end(id: string, end: ApplyEnd, rel: string): void {
    this.waiting.delete(id);
    const patch: IntentPatch =
      end.type === 'applied'
        ? { status: 'done', result: { ok: true, summary: `Applied to ${rel}` } }
        : end.type === 'rejected'
          ? { status: 'rejected' }
          : { status: 'failed', result: { ok: false, summary: end.reason } };
    this.sink().updateIntent(id, patch);
  }
}
