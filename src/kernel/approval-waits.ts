// The approval hand-off between a running loop and whoever answers: a call that waits for the
// user parks here, and approve/reject (or a cancel) wakes it. The answer itself is in the log;
// a waiter only learns that it may look again.
import type { EventLog } from './event-log.js';

export type Decision = 'approved' | 'rejected' | 'cancelled';

export class ApprovalWaits {
  private readonly waiters = new Map<string, () => void>();

  /** Resolves once `settled` gives an answer: at once if it has one, else when the call is woken. */
  decision(id: string, settled: () => Decision | undefined): Promise<Decision> {
    const now = settled();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => this.waiters.set(id, () => resolve(settled() ?? 'cancelled')));
  }

  wake(id: string): void {
    const waiter = this.waiters.get(id);
    this.waiters.delete(id);
    waiter?.();
  }

  wakeAll(): void {
    for (const id of [...this.waiters.keys()]) this.wake(id);
  }
}

/** Why the user rejected a call: the latest rejection the log holds for it. */
export function rejectionReason(log: EventLog, id: string): { reason: string; unanswered: boolean } {
  for (let seq = log.length; seq > 0; seq--) {
    const e = log.at(seq)!;
    if (e.type === 'intent_rejected' && e.intentId === id) return { reason: e.reason, unanswered: e.unanswered === true };
  }
  return { reason: '', unanswered: false };
}
