// Remote agents in a replay: a call to one (delegate_remote) is answered from the record, as
// recorded model turns stand in for the model. The recorded `remote_update` events are logged
// again and the recorded observation returned; the remote agent is never called — it may be
// down, cost money, or answer differently today. A call the record does not hold (the build now
// proposes another call at that place) fails with a code, which the replay reports as a difference.
import { REMOTE_DELEGATE_TOOL, replayedDelegateRemoteTool } from '../../a2a/index.js';
import type { Observation, RemoteUpdate, RuntimeEvent, ToolDefinition, ToolIntent, ToolResult } from '../../kernel/index.js';

/** What the record holds of one call: what was proposed, what came back, what the agent sent. */
export interface RecordedAnswer {
  intent: ToolIntent;
  observed: Observation | undefined;
  updates: RemoteUpdate[];
}

/**
 * delegate_remote answered from the record, or undefined when the log holds no such call.
 * `recordedCallOf` finds the recorded call a replayed call stands for (by frame and position).
 */
export function replayedRemoteTool(
  recorded: readonly RuntimeEvent[],
  recordedCallOf: (replayedIntentId: string) => RecordedAnswer | undefined,
): ToolDefinition | undefined {
  const agents = new Set<string>();
  for (const e of recorded) if (e.type === 'intent_proposed' && e.intent.tool === REMOTE_DELEGATE_TOOL) agents.add(agentOf(e.intent.input));
  if (agents.size === 0) return undefined;
  return replayedDelegateRemoteTool([...agents], async (call, ctx) => {
    const answer = ctx.intentId === undefined ? undefined : recordedCallOf(ctx.intentId);
    if (!answer?.observed || answer.intent.tool !== REMOTE_DELEGATE_TOOL || !sameCall(answer.intent.input, call))
      return {
        ok: false,
        code: 'execution_failed',
        retryable: false,
        content: 'The recording holds no answer to this call to a remote agent, and a replay never calls one.',
      };
    for (const update of answer.updates) ctx.report?.(update);
    return resultOf(answer.observed);
  });
}

/** A remote_update event as the tool reported it (without the log's stamps and the intent id). */
export function remoteUpdateOf(e: Extract<RuntimeEvent, { type: 'remote_update' }>): RemoteUpdate {
  const update: RemoteUpdate = { agent: e.agent, kind: e.kind, text: e.text };
  if (e.state !== undefined) update.state = e.state;
  if (e.name !== undefined) update.name = e.name;
  if (e.mediaType !== undefined) update.mediaType = e.mediaType;
  return update;
}

function agentOf(input: unknown): string {
  return String((input as { agent?: unknown } | null)?.agent ?? '');
}

function sameCall(recorded: unknown, now: { agent: string; task: string }): boolean {
  const r = recorded as { agent?: unknown; task?: unknown } | null;
  return r?.agent === now.agent && r?.task === now.task;
}

function resultOf(o: Observation): ToolResult {
  const result: ToolResult = { ok: o.ok, content: o.content };
  if (o.summary !== undefined) result.summary = o.summary;
  if (o.code !== undefined) result.code = o.code;
  if (o.retryable !== undefined) result.retryable = o.retryable;
  if (o.data !== undefined) result.data = o.data;
  return result;
}
