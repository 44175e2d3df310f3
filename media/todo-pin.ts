// The task's to-do list, pinned above the composer: the model's last todo_write, one line per
// item, ticked when done. It is a list to assistive technology, and each item says its state in
// words ("done", "in progress", "pending") besides the glyph, so nothing is told by colour alone.
// In Plan mode the list is the plan: once the run that wrote it ended, "Approve plan" asks the
// host to go on in Agent mode with it; to change or reject it the user just writes. Its head is a
// toggle: collapsed, the pin is one line (the item in progress) and the transcript gets the room.
import { TestIds, type TodoView } from '../src/protocol/index.js';
import { actionButton, h, icon, setHidden } from './dom.js';

const LIST_ID = 'keel-todo-items';

const STATE: Record<TodoView['status'], { glyph: string; words: string }> = {
  done: { glyph: 'pass-filled', words: 'done' },
  in_progress: { glyph: 'circle-large-filled', words: 'in progress' },
  pending: { glyph: 'circle-large-outline', words: 'pending' },
};
/** An item left "in progress" by a run that ended (Stop, a failure, the model's last word): nothing works on it now. */
const STOPPED = { glyph: 'debug-pause', words: 'not finished when the run ended' };

export class TodoPin {
  readonly el: HTMLElement;
  private readonly headText = h('span', { class: 'todo-pin-head-text', text: 'To-do' });
  private readonly head = h(
    'button',
    {
      class: 'todo-pin-head',
      attrs: {
        type: 'button',
        'aria-expanded': 'true',
        'aria-controls': LIST_ID,
        // Kept equal to the words shown (drawHead); aria-expanded says open or shut.
        'aria-label': 'To-do',
        title: 'Show or hide the to-do list',
        'data-testid': TestIds.todoPinToggle,
      },
    },
    icon('chevron-down', 'todo-pin-chevron'),
    this.headText,
  );
  private readonly list = h('ol', { class: 'todo-pin-items', attrs: { id: LIST_ID } });
  private collapsed = false;
  private count = 'To-do';
  private now = '';
  private readonly approve = actionButton('approve-plan', 'Approve the plan and carry it out in Agent mode', {
    text: 'Approve plan',
    icon: 'check',
    testId: TestIds.approvePlan,
  });
  /** Beside Approve plan: the other answer, which nothing on screen said (typing revises the plan). */
  private readonly planHint = h('p', {
    class: 'todo-plan-hint',
    attrs: { 'data-testid': TestIds.planHint },
    text: 'Or type what to change in the box below: Keel revises the plan first.',
  });
  private shown = '';

  constructor() {
    this.el = h(
      'section',
      { class: 'todo-pin', attrs: { 'data-testid': TestIds.todoPin, 'aria-label': 'To-do list' } },
      this.head,
      this.list,
      // One row: the two answers side by side, so a finished plan leaves the conversation its room.
      h('div', { class: 'todo-plan-row' }, this.approve, this.planHint),
    );
    this.el.hidden = true;
    this.approve.hidden = true;
    this.planHint.hidden = true;
    this.head.addEventListener('click', () => this.setCollapsed(!this.collapsed));
  }

  private drawHead(): void {
    const words = this.collapsed && this.now ? `${this.count} · now: ${this.now}` : this.count;
    this.headText.textContent = words;
    this.head.setAttribute('aria-label', words);
  }

  /** Collapsed: the head alone, naming the item in progress; the list is a click away. */
  setCollapsed(collapsed: boolean): void {
    this.collapsed = collapsed;
    this.head.setAttribute('aria-expanded', String(!collapsed));
    this.el.classList.toggle('collapsed', collapsed);
    setHidden(this.list, collapsed);
    this.drawHead();
  }

  /** `plan`: the list is a finished Plan-mode run's plan, offered for approval; `live`: a run is working. */
  update(todos: readonly TodoView[] | undefined, plan: boolean, live = true): void {
    const items = todos ?? [];
    setHidden(this.approve, !plan || items.length === 0);
    setHidden(this.planHint, !plan || items.length === 0);
    const key = JSON.stringify([items, live]);
    if (key === this.shown) return;
    this.shown = key;
    setHidden(this.el, items.length === 0);
    const done = items.filter((t) => t.status === 'done').length;
    this.count = `To-do · ${done} of ${items.length} done`;
    this.now = items.find((t) => t.status === 'in_progress')?.text ?? '';
    this.drawHead();
    this.list.replaceChildren(...items.map((t) => todoItem(t, live)));
  }
}

function todoItem(t: TodoView, live: boolean): HTMLLIElement {
  const stopped = !live && t.status === 'in_progress';
  const state = stopped ? STOPPED : STATE[t.status];
  return h(
    'li',
    { class: 'todo-item', attrs: { 'data-status': stopped ? 'stopped' : t.status, 'data-testid': TestIds.todoItem } },
    icon(state.glyph, 'todo-glyph'),
    h('span', { class: 'todo-text', text: t.text }),
    h('span', { class: 'visually-hidden', text: ` (${state.words})` }),
  );
}
