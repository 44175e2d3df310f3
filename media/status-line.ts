// The activity line under the transcript: never silent while a run works. It says what is going
// on in words, with the elapsed time (as the cards write it) — "Waiting for the model · 4s" until
// the first token, "Writing src/app.ts · 3.1 kB · 12s" while a tool call's input streams, "Running
// npm test · 12s" while a call runs — and, when the stream has sent nothing for a while, "No data
// from the model for 25s" with Stop and Retry. Streamed text is its own sign of life. Elapsed times come from the
// app's clock (injected), so tests never race a real one.
import { isLiveRunStatus, TestIds, type Activity, type IntentItem, type TranscriptItem } from '../src/protocol/index.js';
import { actionButton, h, icon, setHidden } from './dom.js';
import { formatElapsed } from './intent-card.js';
import { toolDoing, toolTitle } from './tool-titles.js';
import type { ViewModel } from './view-model.js';

interface Line {
  /** What is happening, in words. */
  what: string;
  /** Identifies the activity, so its elapsed time restarts only when it changes. */
  key: string;
  /** Host-clock start when known (a running call); else counted from when it was first seen. */
  hostStart?: number;
  /** The stream is silent: the time shown is the silence, and Stop and Retry are offered. */
  stalled?: { silentMs: number; receivedAt: number };
}

export class StatusLine {
  readonly el: HTMLElement;
  private readonly glyph = h('span', { class: 'status-line-glyph' });
  private readonly text = h('span', { class: 'status-line-text' });
  private readonly actions: HTMLElement;
  private current: { key: string; localStart: number } | undefined;
  private glyphName = '';

  constructor() {
    this.actions = h(
      'span',
      { class: 'status-line-actions' },
      actionButton('stop', 'Stop the run', { text: 'Stop', class: 'button secondary', testId: TestIds.stallStop }),
      actionButton('retry-turn', 'Retry: ask the model again for this turn', { text: 'Retry', testId: TestIds.stallRetry }),
    );
    this.el = h(
      'div',
      { class: 'status-line', attrs: { 'data-testid': TestIds.statusLine, role: 'status' } },
      this.glyph,
      this.text,
      this.actions,
    );
    this.el.hidden = true;
  }

  /** Redraws from the model; returns true while the line shows (the app keeps ticking it). */
  update(model: ViewModel, localNow: number): boolean {
    const line = lineOf(model);
    setHidden(this.el, !line);
    if (!line) {
      this.current = undefined;
      return false;
    }
    if (this.current?.key !== line.key) this.current = { key: line.key, localStart: localNow };
    const started = line.hostStart !== undefined ? line.hostStart - model.hostSkew : this.current.localStart;
    const elapsed = line.stalled ? line.stalled.silentMs + localNow - line.stalled.receivedAt : localNow - started;
    this.text.textContent = line.stalled ? `${line.what} ${formatElapsed(elapsed)}` : `${line.what} · ${formatElapsed(elapsed)}`;
    this.el.classList.toggle('stalled', !!line.stalled);
    setHidden(this.actions, !line.stalled);
    this.setGlyph(line.stalled ? 'warning' : 'loading');
    return true;
  }

  private setGlyph(name: string): void {
    if (this.glyphName === name) return;
    this.glyphName = name;
    this.glyph.replaceChildren(icon(name, name === 'loading' ? 'codicon-modifier-spin' : ''));
  }
}

function lineOf(model: ViewModel): Line | undefined {
  if (!isLiveRunStatus(model.status)) return undefined;
  const activity = model.activity;
  if (activity?.value.type === 'stalled')
    return { what: 'No data from the model for', key: 'stall', stalled: { ...activity.value, receivedAt: activity.receivedAt } };
  if (activity?.value.type === 'tool_input') return inputLine(activity.value);
  if (model.status === 'executing') {
    const running = lastIntent(model, (i) => i.status === 'running');
    if (!running) return undefined;
    return {
      what: running.command ? `Running ${running.command}` : toolDoing(running.tool),
      key: `run:${running.id}`,
      ...(running.startedAt === undefined ? {} : { hostStart: running.startedAt }),
    };
  }
  if (model.status !== 'running' || model.retry) return undefined;
  // Keel's own dialog is open (where to send the key): the run waits on the user, not the model.
  if (model.hints.question) return { what: 'Waiting for your answer in the dialog', key: `ask:${model.hints.question}` };
  const last = model.count > 0 ? model.itemAt(model.count - 1) : undefined;
  if (last && isStreaming(last)) return undefined;
  return { what: 'Waiting for the model', key: `wait:${last?.id ?? ''}` };
}

/** "Writing src/app.ts · 3.1 kB" while a file change streams; "Preparing: Update the to-do list · 600 B" for another call. */
function inputLine(a: Extract<Activity, { type: 'tool_input' }>): Line {
  const doing =
    a.toolKind === 'edit'
      ? `Writing ${a.path ?? 'a file'}`
      : a.tool
        ? `Preparing: ${toolTitle(a.tool)}${a.path ? ` (${a.path})` : ''}`
        : 'Preparing a tool call';
  return { what: `${doing} · ${size(a.bytes)}`, key: `input:${a.call}` };
}

function size(bytes: number): string {
  return bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} kB`;
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
