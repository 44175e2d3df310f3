// The live line under the transcript while a run works and nothing else moves: "Waiting for the
// model… 4s" until the first token, "Running the tests… 12s" while a call runs. Elapsed
// times come from the app's clock (injected), so tests never race a real one.
import { TestIds, type IntentItem, type TranscriptItem } from '../src/protocol/index.js';
import { h, icon, setHidden } from './dom.js';
import { formatElapsed } from './intent-card.js';
import { toolDoing } from './tool-titles.js';
import type { ViewModel } from './view-model.js';

interface Activity {
  /** What is happening, in words. */
  what: string;
  /** Identifies the activity, so its elapsed time restarts only when it changes. */
  key: string;
  /** Host-clock start when known (a running call); else counted from when it was first seen. */
  hostStart?: number;
}

export class StatusLine {
  readonly el: HTMLElement;
  private readonly text = h('span', { class: 'status-line-text' });
  private current: { key: string; localStart: number } | undefined;

  constructor() {
    this.el = h(
      'div',
      { class: 'status-line', attrs: { 'data-testid': TestIds.statusLine, role: 'status' } },
      icon('loading', 'codicon-modifier-spin'),
      this.text,
    );
    this.el.hidden = true;
  }

  /** Redraws from the model; returns true while the line shows (the app keeps ticking it). */
  update(model: ViewModel, localNow: number): boolean {
    const activity = activityOf(model);
    setHidden(this.el, !activity);
    if (!activity) {
      this.current = undefined;
      return false;
    }
    if (this.current?.key !== activity.key) this.current = { key: activity.key, localStart: localNow };
    const started = activity.hostStart !== undefined ? activity.hostStart - model.hostSkew : this.current.localStart;
    this.text.textContent = `${activity.what} ${formatElapsed(localNow - started)}`;
    return true;
  }
}

function activityOf(model: ViewModel): Activity | undefined {
  if (model.status === 'executing') {
    const running = lastIntent(model, (i) => i.status === 'running');
    if (!running) return undefined;
    return {
      what: `${toolDoing(running.tool)}…`,
      key: `run:${running.id}`,
      ...(running.startedAt === undefined ? {} : { hostStart: running.startedAt }),
    };
  }
  if (model.status !== 'running' || model.retry) return undefined;
  // Keel's own dialog is open (where to send the key): the run waits on the user, not the model.
  if (model.hints.question) return { what: 'Waiting for your answer in the dialog…', key: `ask:${model.hints.question}` };
  const last = model.count > 0 ? model.itemAt(model.count - 1) : undefined;
  if (last && isStreaming(last)) return undefined;
  return { what: 'Waiting for the model…', key: `wait:${last?.id ?? ''}` };
}

const isStreaming = (item: TranscriptItem): boolean => (item.kind === 'assistant' || item.kind === 'reasoning') && !item.done;

function lastIntent(model: ViewModel, match: (item: IntentItem) => boolean): IntentItem | undefined {
  // Running calls are near the end; look back a bounded way, never through a long transcript.
  for (let i = model.count - 1; i >= Math.max(0, model.count - 50); i--) {
    const item = model.itemAt(i);
    if (item?.kind === 'intent' && match(item)) return item;
  }
  return undefined;
}
