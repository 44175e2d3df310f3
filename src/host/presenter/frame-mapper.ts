// Maps a sub-agent's events (those with a frame id) onto the transcript: one frame item per
// child run — collapsed under the call that started it — whose turns, calls, tokens and state
// follow the run, and the child's calls as intent cards marked with their frame (nested in the
// view, approved through the same buttons). The child's text is not streamed into the
// transcript; its last answer lands on the frame item when it ends.
import type { RuntimeEvent } from '../../kernel/contracts/index.js';
import type { FrameItem, FramePatch } from '../../protocol/index.js';
import { applyIntentEvent, intentItem } from './event-mapper.js';
import type { TranscriptModel } from './transcript-model.js';

/** The text of each running frame's current turn: its answer when the frame ends. */
const turnText = new WeakMap<TranscriptModel, Map<string, string>>();

export function applyFrameEvent(model: TranscriptModel, event: RuntimeEvent, frameId: string): boolean {
  const texts = turnText.get(model) ?? new Map<string, string>();
  turnText.set(model, texts);
  const frame = model.get(frameId);
  if (event.type === 'frame_started') return addFrame(model, event, frameId);
  if (frame?.kind !== 'frame') return false;
  switch (event.type) {
    case 'turn_started':
      texts.set(frameId, '');
      patchFrame(model, frame, { turns: event.turn });
      return false;
    case 'text_delta':
      texts.set(frameId, (texts.get(frameId) ?? '') + event.text);
      return false;
    case 'usage': {
      const u = event.usage;
      const cost = u.costUsd === undefined ? {} : { costUsd: (frame.costUsd ?? 0) + u.costUsd };
      patchFrame(model, frame, { tokens: frame.tokens + u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens, ...cost });
      return false;
    }
    case 'intent_proposed':
      model.add({ ...intentItem(event.intent, model.toolKind(event.intent.tool)), frame: frameId });
      patchFrame(model, frame, { calls: frame.calls + 1 });
      return false;
    case 'run_finished':
      patchFrame(model, frame, { status: 'done', answer: (texts.get(frameId) ?? '').trim() });
      texts.delete(frameId);
      return true;
    case 'run_failed':
      patchFrame(model, frame, { status: 'failed', answer: event.error.message });
      texts.delete(frameId);
      return true;
    case 'run_cancelled':
      patchFrame(model, frame, { status: 'cancelled' });
      texts.delete(frameId);
      return true;
    default:
      // Approvals, starts and results of the child's calls: the same cards as the task's own.
      return applyIntentEvent(model, event) ?? false;
  }
}

function addFrame(model: TranscriptModel, e: Extract<RuntimeEvent, { type: 'frame_started' }>, id: string): boolean {
  const item: FrameItem = {
    kind: 'frame',
    id,
    parentIntentId: e.parentIntentId,
    ...(e.parentFrame ? { parentFrame: e.parentFrame } : {}),
    depth: e.depth,
    task: e.task,
    ...(e.planTaskId ? { planTaskId: e.planTaskId } : {}),
    status: 'running',
    turns: 0,
    calls: 0,
    tokens: 0,
  };
  model.add(item);
  return true;
}

function patchFrame(model: TranscriptModel, frame: FrameItem, patch: FramePatch): void {
  Object.assign(frame, patch);
  model.record({ type: 'frame/update', id: frame.id, patch });
}
