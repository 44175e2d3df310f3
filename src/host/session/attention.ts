// Noticing when Keel needs you: a badge on the Keel view counting the cards that wait for an
// answer, and a notification with Show when a card starts waiting or a run ends while the window
// or the view is not in front. Each can be turned off (keel.notifications.badge, .whenAway).
// No vscode: the host passes its ports, so this is unit-tested.
import { RUN_END_TYPES, type RuntimeEvent } from '../../kernel/contracts/index.js';
import { findIntent } from '../../kernel/state-queries.js';
import type { Task } from '../tasks/task.js';

/** Events after which the count of waiting cards may have changed. */
const ANSWERS = new Set<RuntimeEvent['type']>([
  'approval_requested',
  'intent_approved',
  'intent_rejected',
  'observation',
  ...RUN_END_TYPES,
]);

export interface AttentionPorts {
  /** The view's badge (0: none). */
  badge(count: number): void;
  /** A notification with a Show button; resolves true when Show was clicked. */
  notify(message: string): PromiseLike<boolean>;
  /** Brings the Keel view to the front. */
  show(): void;
  /** The window has no focus or the Keel view is not visible. */
  away(): boolean;
  settings(): { badge: boolean; whenAway: boolean };
}

export type RunEnd = 'completed' | 'failed';

export class Attention {
  private count = 0;

  constructor(private readonly ports: AttentionPorts) {}

  /** How many cards of the shown task wait for an answer now. */
  waiting(count: number): void {
    this.count = count;
    this.ports.badge(this.ports.settings().badge ? count : 0);
  }

  /** A setting changed: the badge follows it. */
  refresh(): void {
    this.waiting(this.count);
  }

  /** A card started waiting; `what` names it ("npm test", "src/price.js"). */
  cardWaits(what: string): void {
    this.tell(`Keel is waiting for your approval: ${what}`);
  }

  runEnded(how: RunEnd, title: string): void {
    this.tell(how === 'completed' ? `Keel finished: ${title}` : `Keel's run failed: ${title}`);
  }

  private tell(message: string): void {
    if (!this.ports.settings().whenAway || !this.ports.away()) return;
    void Promise.resolve(this.ports.notify(message)).then((show) => {
      if (show) this.ports.show();
    });
  }
}

/**
 * What the user should hear of in an event of the shown task: the waiting count after any answer,
 * a card starting to wait (a sub-agent's too), the task's own run ending (a stop is the user's).
 */
export function noticeEvent(
  attention: Pick<Attention, 'waiting' | 'cardWaits' | 'runEnded'>,
  event: RuntimeEvent,
  task: Pick<Task, 'getState' | 'entry'>,
  waitingCount: () => number,
): void {
  if (ANSWERS.has(event.type)) attention.waiting(waitingCount());
  if (event.type === 'approval_requested')
    attention.cardWaits(event.command ?? findIntent(task.getState(), event.intentId)?.intent.summary ?? 'an action');
  if (event.frame === undefined && (event.type === 'run_finished' || event.type === 'run_failed'))
    attention.runEnded(event.type === 'run_finished' ? 'completed' : 'failed', task.entry.title);
}
