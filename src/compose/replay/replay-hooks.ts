// Hooks in a replay: none is run. The replay answers each hook point with what the recording's
// hooks answered there (its hook_ran events), so the replayed model reads the same bytes — a
// block, an added context — and a difference means the build changed, not a script. A hook
// script changed since the recording is therefore not tested by a replay; run the task again.
import type { HookPort, HookRun, RuntimeEvent } from '../../kernel/index.js';

type Answered = Awaited<ReturnType<HookPort['run']>>[number];

/**
 * `recordedIntent`: the recorded call a replayed one stands for (its id), found by position.
 * Undefined when the recording ran no hook: the replay then runs none either.
 */
export function recordedHooks(
  events: readonly RuntimeEvent[],
  recordedIntent: (intentId: string) => string | undefined,
): HookPort | undefined {
  const ran = events.filter((e): e is Extract<RuntimeEvent, { type: 'hook_ran' }> => e.type === 'hook_ran');
  if (ran.length === 0) return undefined;
  const firstMessage = events.find((e) => e.type === 'user_message')?.seq ?? Number.POSITIVE_INFINITY;
  return {
    async run(call) {
      if (call.intentId !== undefined) {
        const id = recordedIntent(call.intentId);
        return ran.filter((e) => e.intentId === id && e.point === call.point).map(answer);
      }
      // The replay sends the task's first message: the answers given when it was sent.
      if (call.point === 'TaskStart' || call.point === 'UserPromptSubmit')
        return ran.filter((e) => e.point === call.point && e.seq < firstMessage && e.frame === undefined).map(answer);
      return [];
    },
  };
}

function answer(e: HookRun): Answered {
  return {
    hook: e.hook,
    source: e.source,
    outcome: e.outcome,
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
    ...(e.context !== undefined ? { context: e.context } : {}),
    durationMs: e.durationMs,
    ...(e.truncated ? { truncated: true } : {}),
  };
}
