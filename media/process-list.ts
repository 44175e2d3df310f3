// The shown task's background processes (start_process), above the composer: one row each with
// its name, the ports it printed and a Stop button, so a dev server the model left running is
// visible and one click ends it. Hidden when none runs. Names and commands are model text: they
// are set as text, never as markup.
import { type ProcessView, TestIds } from '../src/protocol/index.js';
import { actionButton, h, icon, setHidden } from './dom.js';

export class ProcessList {
  readonly el = h('section', {
    class: 'process-list',
    attrs: { 'data-testid': TestIds.processList, 'aria-label': 'Background processes' },
  });
  private shown = '';

  constructor() {
    this.el.hidden = true;
  }

  update(processes: readonly ProcessView[] | undefined): void {
    const rows = processes ?? [];
    const key = JSON.stringify(rows);
    if (key === this.shown) return;
    this.shown = key;
    setHidden(this.el, rows.length === 0);
    this.el.replaceChildren(...rows.map(processRow));
  }
}

function processRow(p: ProcessView): HTMLElement {
  const ports = p.ports.length ? `:${p.ports.join(', :')}` : 'no port yet';
  return h(
    'div',
    { class: 'process-row', attrs: { title: p.command } },
    icon('server-process', 'process-glyph'),
    h('span', { class: 'process-name', text: p.name }),
    h('span', { class: 'process-ports', text: ports }),
    actionButton('stop-process', `Stop ${p.name}`, { icon: 'debug-stop', data: { name: p.name } }),
  );
}
