// The "Rules: AGENTS.md, .keel/rules/style.md" line under the header: which rules files the
// shown task's prompt carries. Each name is a button asking the host to open that file; the
// host opens only files the task really used.
import { TestIds } from '../src/protocol/index.js';
import { actionButton, h, setHidden } from './dom.js';

export class RulesLine {
  readonly el: HTMLElement;
  private shown = '';

  constructor() {
    this.el = h('div', { class: 'rules-line', attrs: { 'data-testid': TestIds.rulesLine, role: 'note' } });
    this.el.hidden = true;
  }

  update(rules: readonly string[] | undefined): void {
    const files = rules ?? [];
    const key = files.join('\n');
    if (key === this.shown) return;
    this.shown = key;
    setHidden(this.el, files.length === 0);
    const links = files.flatMap((file, i) => [
      ...(i > 0 ? [', '] : []),
      actionButton('open-rules', `Open rules file ${file}`, {
        text: file,
        class: 'rules-file',
        testId: TestIds.rulesFile,
        data: { path: file },
      }),
    ]);
    this.el.replaceChildren(h('span', { class: 'rules-label', text: 'Rules: ' }), ...links);
  }
}
