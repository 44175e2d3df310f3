// The task history panel: open or delete a task.
import { TestIds, type TaskList } from '../src/protocol/index.js';
import { actionButton, h, setHidden } from './dom.js';

const STATUS_TEXT: Record<string, string> = {
  idle: 'idle',
  running: 'running',
  waiting_for_approval: 'waiting',
  executing: 'running',
  // Not "done": a run the model gave up on ends the same way (Keel cannot tell them apart).
  completed: 'ended',
  failed: 'failed',
  cancelled: 'stopped',
};

export class TaskListView {
  readonly el: HTMLElement;
  private readonly list = h('ul', { class: 'task-list', attrs: { 'aria-label': 'Task history' } });
  private open = false;

  constructor() {
    this.el = h('div', { class: 'task-panel', attrs: { role: 'region', 'aria-label': 'Task history' } }, this.list);
    this.el.hidden = true;
  }

  get isOpen(): boolean {
    return this.open;
  }

  toggle(open = !this.open): void {
    this.open = open;
    setHidden(this.el, !open);
  }

  update(tasks: TaskList): void {
    if (tasks.tasks.length === 0) {
      this.list.replaceChildren(h('li', { class: 'task-empty', text: 'No tasks yet.' }));
      return;
    }
    this.list.replaceChildren(
      ...tasks.tasks.map((task) => {
        const current = task.id === tasks.currentTaskId;
        const when = new Date(task.updatedAt).toLocaleString();
        const open = actionButton('open-task', `Open task: ${task.title}`, {
          text: task.title,
          class: 'task-open',
          testId: TestIds.taskOpen,
          data: { 'task-id': task.id },
        });
        if (current) open.setAttribute('aria-current', 'true');
        return h(
          'li',
          { class: `task-row${current ? ' current' : ''}`, attrs: { 'data-testid': TestIds.taskItem, 'data-task-id': task.id } },
          open,
          h('span', {
            class: 'task-meta',
            text: `${task.elsewhere ? 'running in another window' : (STATUS_TEXT[task.status] ?? task.status)} · ${when}`,
          }),
          actionButton('delete-task', `Delete task: ${task.title}`, {
            icon: 'trash',
            testId: TestIds.taskDelete,
            data: { 'task-id': task.id },
          }),
        );
      }),
    );
  }
}
