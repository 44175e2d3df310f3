// Sub-agents in the transcript: a child run is a collapsed card (its brief, state, turns, calls
// and cost) placed right under the call that started it, expandable to its own calls — approval
// cards included, answered with the same buttons. A plan gets a small live list after its card:
// one row per task (waiting, running, done, failed), each expandable to its child run.
import { TestIds, type FrameItem, type IntentItem, type TranscriptItem } from '../src/protocol/index.js';
import { h, icon } from './dom.js';
import type { ItemView } from './item-views.js';
import { formatTokens } from './meter-view.js';

const FRAME_ICONS: Record<FrameItem['status'], string> = { running: 'loading', done: 'pass', failed: 'error', cancelled: 'circle-slash' };

export class FrameView implements ItemView {
  readonly el: HTMLDetailsElement;
  /** Where the child's own cards (and its children's runs) go. */
  readonly nested = h('div', { class: 'frame-nested' });
  private readonly iconEl = h('span', { class: 'frame-icon' });
  private readonly metaEl = h('span', { class: 'frame-meta' });
  private readonly answerEl = h('div', { class: 'frame-answer' });

  constructor(item: FrameItem) {
    const label = item.planTaskId ? `Sub-agent · ${item.planTaskId}` : 'Sub-agent';
    this.el = h(
      'details',
      { class: 'item frame-card', attrs: { 'data-testid': TestIds.frameCard, 'data-item-id': item.id, 'data-depth': String(item.depth) } },
      h(
        'summary',
        {},
        this.iconEl,
        h('span', { class: 'frame-label', text: ` ${label}: ` }),
        h('span', { class: 'frame-task', text: firstLine(item.task) }),
        ' ',
        this.metaEl,
      ),
      this.answerEl,
      this.nested,
    );
    this.update(item);
  }

  update(item: TranscriptItem): void {
    if (item.kind !== 'frame') return;
    this.el.setAttribute('data-frame-status', item.status);
    this.iconEl.replaceChildren(icon(FRAME_ICONS[item.status], item.status === 'running' ? 'codicon-modifier-spin' : ''));
    const cost = item.costUsd === undefined ? '' : ` · $${item.costUsd.toFixed(3)}`;
    const tokens = item.tokens ? ` · ${formatTokens(item.tokens)} tokens` : '';
    this.metaEl.textContent = `(${item.status} · ${item.turns} turn${item.turns === 1 ? '' : 's'} · ${item.calls} call${item.calls === 1 ? '' : 's'}${tokens}${cost})`;
    this.answerEl.textContent = item.answer ?? '';
  }
}

type PlanState = 'waiting' | 'running' | 'done' | 'failed';

class PlanListView {
  readonly el = h('ul', { class: 'plan-list', attrs: { 'data-testid': TestIds.planList, 'aria-label': 'Plan' } });
  private readonly rows = new Map<string, { state: HTMLElement; body: HTMLElement; li: HTMLElement; started: boolean }>();

  constructor(plan: NonNullable<IntentItem['plan']>) {
    for (const task of plan) {
      const state = h('span', { class: 'plan-state' });
      const body = h('div', { class: 'plan-body' });
      const after = task.dependsOn.length ? ` (after ${task.dependsOn.join(', ')})` : '';
      const li = h(
        'li',
        { class: 'plan-task', attrs: { 'data-testid': TestIds.planTask, 'data-task-id': task.id } },
        h('span', { class: 'plan-id', text: task.id }),
        after,
        ' ',
        state,
        body,
      );
      this.rows.set(task.id, { state, body, li, started: false });
      this.el.append(li);
      this.set(task.id, 'waiting');
    }
  }

  /** A child run of the task: shown in its row, the row's state following it. */
  adopt(taskId: string, el: HTMLElement): boolean {
    const row = this.rows.get(taskId);
    if (!row) return false;
    row.started = true;
    row.body.append(el);
    return true;
  }

  set(taskId: string, state: PlanState): void {
    const row = this.rows.get(taskId);
    if (!row) return;
    row.li.setAttribute('data-state', state);
    row.state.textContent = state;
  }

  /** The plan's call ended: tasks that never started did not run. */
  ended(): void {
    for (const [id, row] of this.rows) if (!row.started) this.set(id, 'failed');
  }
}

const PLAN_STATES: Record<FrameItem['status'], PlanState> = { running: 'running', done: 'done', failed: 'failed', cancelled: 'failed' };

/** Where sub-agent views go in the transcript; the transcript appends anything it does not place. */
export class FrameNesting {
  private readonly frames = new Map<string, FrameView>();
  private readonly plans = new Map<string, PlanListView>();
  /** The last element placed under each call, so its runs keep their order. */
  private readonly lastUnder = new Map<string, Element>();

  reset(): void {
    this.frames.clear();
    this.plans.clear();
    this.lastUnder.clear();
  }

  /** Places `view` nested (true), or leaves it to the caller (false: its parent is not rendered). */
  place(item: TranscriptItem, view: ItemView, views: ReadonlyMap<string, ItemView>): boolean {
    if (item.kind === 'intent' && item.frame) {
      const frame = this.frames.get(item.frame);
      frame?.nested.append(view.el);
      return frame !== undefined;
    }
    if (item.kind !== 'frame' || !(view instanceof FrameView)) return false;
    this.frames.set(item.id, view);
    const plan = this.plans.get(item.parentIntentId);
    if (item.planTaskId && plan?.adopt(item.planTaskId, view.el)) {
      plan.set(item.planTaskId, PLAN_STATES[item.status]);
      return true;
    }
    const anchor = this.lastUnder.get(item.parentIntentId) ?? views.get(item.parentIntentId)?.el;
    if (!anchor) return false;
    anchor.after(view.el);
    this.lastUnder.set(item.parentIntentId, view.el);
    return true;
  }

  /** After a card is in place: a plan's card gets its live list under it. */
  mounted(item: TranscriptItem, view: ItemView): void {
    if (item.kind !== 'intent' || !item.plan) return;
    const list = new PlanListView(item.plan);
    this.plans.set(item.id, list);
    view.el.after(list.el);
    this.lastUnder.set(item.id, list.el);
    if (item.result) list.ended();
  }

  updated(item: TranscriptItem): void {
    if (item.kind === 'frame' && item.planTaskId) this.plans.get(item.parentIntentId)?.set(item.planTaskId, PLAN_STATES[item.status]);
    if (item.kind === 'intent' && item.result) this.plans.get(item.id)?.ended();
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
