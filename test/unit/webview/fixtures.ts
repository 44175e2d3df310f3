// Host messages for webview tests.
import type { DeltaOp, SessionSnapshot, TranscriptItem } from '../../../src/protocol/index.js';

export function snapshot(items: TranscriptItem[] = [], patch: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return {
    type: 'session/snapshot',
    seq: 0,
    hostNow: Date.now(),
    itemsJson: JSON.stringify(items),
    status: 'idle',
    retry: null,
    pendingIntentIds: [],
    meter: {
      usedTokens: 0,
      windowTokens: 200_000,
      split: { systemTools: 0, notes: 0, history: 0, outputReserve: 0 },
      tokens: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
      folds: 0,
    },
    hints: { noApiKey: false, restricted: false, canResume: false },
    tasks: { tasks: [] },
    ...patch,
  };
}

/** Builds consecutive deltas starting after `seq`. */
export function deltas(startSeq = 0) {
  let seq = startSeq;
  return (...ops: DeltaOp[]) => ({ type: 'transcript/delta' as const, seq: ++seq, ops });
}

export const intentItem = (id: string, status: 'awaiting_approval' | 'running' | 'done' = 'awaiting_approval'): TranscriptItem => ({
  kind: 'intent',
  id,
  tool: 'edit_file',
  summary: 'src/a.ts',
  risk: 'write',
  status,
});
