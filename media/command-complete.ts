// Completion of slash commands in the composer: while the text is `/` and a name being typed,
// a list of the matching commands (name, argument hint, description) opens above the box — an
// ARIA combobox: the box keeps the keyboard, arrows move the active option, Enter or Tab puts
// `/name ` in the box, Escape closes. Names and descriptions are text, never markup.
import { type CommandView, TestIds } from '../src/protocol/index.js';
import { h, setHidden } from './dom.js';

/** The most options shown at once (the rest narrow as the name is typed). */
const MAX_SHOWN = 12;
const LIST_ID = 'keel-command-list';

export class CommandCompletion {
  readonly el = h('ul', {
    class: 'command-list',
    attrs: { role: 'listbox', id: LIST_ID, 'aria-label': 'Commands', 'data-testid': TestIds.commandList },
  });
  private commands: readonly CommandView[] = [];
  private shown: CommandView[] = [];
  private active = 0;

  constructor(private readonly input: HTMLTextAreaElement) {
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', LIST_ID);
    input.addEventListener('input', () => this.refresh());
    input.addEventListener('blur', () => this.close());
    this.close();
  }

  setCommands(commands: readonly CommandView[] | undefined): void {
    this.commands = commands ?? [];
    // The list can arrive after `/` was typed (a new window lists the commands once the host has
    // read them): while the box has the keyboard, show what now matches.
    const typing = this.input.ownerDocument.activeElement === this.input;
    if (!this.el.hidden || typing) this.refresh();
  }

  /** Handles a key while the list is open; true when it was the list's (the composer ignores it). */
  onKey(e: KeyboardEvent): boolean {
    if (this.el.hidden || e.isComposing) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      this.active = (this.active + (e.key === 'ArrowDown' ? 1 : this.shown.length - 1)) % this.shown.length;
      this.render();
    } else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
      this.pick(this.shown[this.active]!);
    } else if (e.key === 'Escape') {
      this.close();
    } else return false;
    e.preventDefault();
    return true;
  }

  private refresh(): void {
    const typed = /^\/([\w.-]*)$/.exec(this.input.value);
    const prefix = typed?.[1]?.toLowerCase();
    this.shown = prefix === undefined ? [] : this.commands.filter((c) => c.name.toLowerCase().startsWith(prefix)).slice(0, MAX_SHOWN);
    this.active = 0;
    if (this.shown.length === 0) return this.close();
    this.render();
  }

  private render(): void {
    this.el.replaceChildren(
      ...this.shown.map((c, i) => {
        const option = h(
          'li',
          { class: 'command-option', attrs: { role: 'option', id: `${LIST_ID}-${i}`, 'aria-selected': String(i === this.active) } },
          h(
            'span',
            { class: 'command-head' },
            h('span', { class: 'command-name', text: `/${c.name}` }),
            ...(c.argumentHint ? [h('span', { class: 'command-hint', text: ` ${c.argumentHint}` })] : []),
          ),
          // On a line of its own, wrapped: a side bar is too narrow for it beside the name. The
          // dash is for screen readers, which read the option as one line.
          ...(c.description
            ? [h('span', { class: 'visually-hidden', text: ' — ' }), h('span', { class: 'command-description', text: c.description })]
            : []),
        );
        // mousedown, not click: the box keeps focus (a blur would close the list first).
        option.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.pick(c);
        });
        return option;
      }),
    );
    setHidden(this.el, false);
    this.input.setAttribute('aria-expanded', 'true');
    this.input.setAttribute('aria-activedescendant', `${LIST_ID}-${this.active}`);
  }

  private pick(command: CommandView): void {
    this.input.value = `/${command.name} `;
    this.input.dispatchEvent(new Event('input'));
    this.close();
  }

  private close(): void {
    setHidden(this.el, true);
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }
}
