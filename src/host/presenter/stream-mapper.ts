// What the model stream is doing, as the view shows it: its activity (a tool call's input
// streaming, a stream gone quiet) for the activity line, cleared by the events after which it has
// nothing more to say (the turn moved on or the run did); and a turn whose stream was cut (a
// retry, a failure, a stall given up) keeps the text already shown, marked as cut, rather than
// losing it. Text a person reads is made visible first.
import { type ModelActivity, RUN_END_TYPES, type RuntimeEvent } from '../../kernel/contracts/index.js';
import { visibleText } from '../../kernel/visible-text.js';
import type { TranscriptModel } from './transcript-model.js';

/** Events that end what the activity line said (a stall, or a call's input streaming). */
const ENDS_ACTIVITY = new Set<RuntimeEvent['type']>([
  'text_delta',
  'reasoning_delta',
  'model_final',
  'model_error',
  'turn_retry',
  'turn_started',
  ...RUN_END_TYPES,
]);

/** Records the activity; returns whether it must reach the view at once (a stall does). */
export function applyActivity(model: TranscriptModel, activity: ModelActivity): boolean {
  if (activity.type === 'stalled') {
    model.setActivity({ type: 'stalled', silentMs: activity.silentMs });
    return true;
  }
  const toolKind = model.toolKind(activity.tool);
  model.setActivity({
    type: 'tool_input',
    call: activity.call,
    tool: visibleText(activity.tool),
    ...(toolKind ? { toolKind } : {}),
    bytes: activity.bytes,
    ...(activity.path === undefined ? {} : { path: visibleText(activity.path) }),
  });
  return false;
}

/** After an event of the task: the activity line is cleared when the event moved past it. */
export function activityAfter(model: TranscriptModel, event: RuntimeEvent): void {
  if (model.activity && ENDS_ACTIVITY.has(event.type)) model.setActivity(null);
}

/**
 * The current turn's stream was cut (it is retried, or failed): its text stays, marked as cut and
 * finished, so what the user read does not vanish. The retried turn streams into new items.
 */
export function cutTurnText(model: TranscriptModel): void {
  for (const id of model.turnItemIds) {
    const item = model.get(id);
    if ((item?.kind === 'assistant' || item?.kind === 'reasoning') && !item.done) model.replace({ ...item, done: true, cut: true });
  }
}
