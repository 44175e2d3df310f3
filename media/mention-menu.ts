// The `@` menu: `@` typed at a word start opens, at the caret, a list of what can be attached —
// Problems, Selection, Changes, Terminal, then the workspace's files and folders (the host's
// `composer/mentions`) — narrowed by what is typed after the `@`. An ARIA combobox like the
// slash commands' list: the box keeps the keyboard, arrows move, Enter or Tab picks, Escape
// closes. A pick puts `@label` in the sentence where the `@` was typed (one space after it, not
// two) and asks the host for the attachment, whose chip joins the tray.
import { type MentionItem, TestIds, type WebviewMessage } from '../src/protocol/index.js';
import { h, setHidden } from './dom.js';

const MAX_SHOWN = 12;
const LIST_ID = 'keel-mention-list';

/** Where a character of a text box is drawn, in pixels from the box's padding corner. */
export type CaretMeasure = (input: HTMLTextAreaElement, index: number) => { left: number; top: number };

export class MentionMenu {
  readonly el = h('ul', {
    class: 'command-list mention-list',
    attrs: { role: 'listbox', id: LIST_ID, 'aria-label': 'Add context', 'data-testid': TestIds.mentionList },
  });
  private items: readonly MentionItem[] | undefined;
  private shown: MentionItem[] = [];
  private active = 0;
  /** Where the `@` is in the text while the menu is open; -1: closed. */
  private at = -1;
  private point = { left: 0, top: 0 };

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly post: (m: WebviewMessage) => void,
    private readonly measure: CaretMeasure = caretPoint,
  ) {
    input.addEventListener('input', () => this.refresh());
    input.addEventListener('blur', () => this.close());
    input.addEventListener('click', () => this.refresh());
    setHidden(this.el, true);
  }

  /** `@` was typed at `at`: the menu opens there and asks the host what there is. */
  open(at: number): void {
    this.at = at;
    // Measured once: typing after the `@` does not move it.
    this.point = this.measure(this.input, at);
    this.items = undefined;
    this.post({ type: 'mention/list' });
    this.refresh();
  }

  setItems(items: readonly MentionItem[]): void {
    this.items = items;
    this.refresh();
  }

  /** Handles a key while the menu is open; true when it was the menu's (the composer ignores it). */
  onKey(e: KeyboardEvent): boolean {
    if (this.at < 0 || e.isComposing) return false;
    if (e.key === 'Escape') this.close();
    else if (this.shown.length === 0) return false;
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      this.active = (this.active + (e.key === 'ArrowDown' ? 1 : this.shown.length - 1)) % this.shown.length;
      this.render();
    } else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') this.pick(this.shown[this.active]!);
    else return false;
    e.preventDefault();
    return true;
  }

  /** What is typed after the `@` up to the caret; undefined once the caret left the mention. */
  private query(): string | undefined {
    const { value, selectionStart: caret } = this.input;
    if (this.at < 0 || value[this.at] !== '@' || caret <= this.at) return undefined;
    const typed = value.slice(this.at + 1, caret);
    return /\s/.test(typed) ? undefined : typed.toLowerCase();
  }

  private refresh(): void {
    if (this.at < 0) return;
    const query = this.query();
    if (query === undefined) return this.close();
    const ranked = (this.items ?? []).flatMap((item) => {
      const rank = mentionRank(item.label.toLowerCase(), query);
      return rank === undefined ? [] : [{ item, rank }];
    });
    // Stable: within a rank, the host's order (the fixed sources, then the files as walked).
    ranked.sort((a, b) => a.rank - b.rank);
    this.shown = ranked.slice(0, MAX_SHOWN).map((r) => r.item);
    this.active = Math.min(this.active, Math.max(0, this.shown.length - 1));
    this.render();
  }

  private render(): void {
    const waiting = this.items === undefined;
    const empty = waiting ? 'Looking for files…' : 'Nothing matches';
    this.el.replaceChildren(
      ...(this.shown.length === 0
        ? [h('li', { class: 'command-option mention-empty', text: empty, attrs: { role: 'option', 'aria-disabled': 'true' } })]
        : this.shown.map((item, i) => this.option(item, i))),
    );
    setHidden(this.el, false);
    this.place();
    this.input.setAttribute('aria-controls', LIST_ID);
    this.input.setAttribute('aria-expanded', 'true');
    if (this.shown.length) this.input.setAttribute('aria-activedescendant', `${LIST_ID}-${this.active}`);
  }

  private option(item: MentionItem, i: number): HTMLElement {
    const option = h(
      'li',
      { class: 'command-option', attrs: { role: 'option', id: `${LIST_ID}-${i}`, 'aria-selected': String(i === this.active) } },
      h('span', { class: 'command-name', text: item.label }),
      ...(item.description ? [h('span', { class: 'command-hint', text: ` ${item.description}` })] : []),
    );
    // mousedown, not click: the box keeps focus (a blur would close the menu first).
    option.addEventListener('mousedown', (e) => {
      e.preventDefault();
      this.pick(item);
    });
    return option;
  }

  /** The menu's bottom left corner at the `@`, so it opens just above the line being written. */
  private place(): void {
    const point = this.point;
    // At the `@`, moved left only as far as it takes to fit in the panel (a 300 px side bar).
    const room = (this.el.offsetParent as HTMLElement | null)?.clientWidth ?? 0;
    const fit = room > 0 ? room - this.el.offsetWidth - 4 : Number.POSITIVE_INFINITY;
    const left = Math.max(0, Math.min(this.input.offsetLeft + point.left, fit));
    this.el.style.left = `${left}px`;
    this.el.style.top = `${this.input.offsetTop + point.top - this.input.scrollTop}px`;
  }

  private pick(item: MentionItem): void {
    const { value, selectionStart: caret } = this.input;
    const after = value.slice(caret);
    // One space between the mention and what follows: none added when one is there already.
    const token = `@${item.label}${/^\s/.test(after) ? '' : ' '}`;
    this.input.value = value.slice(0, this.at) + token + after;
    const end = this.at + token.length + (/^\s/.test(after) ? 1 : 0);
    this.input.setSelectionRange(end, end);
    this.close();
    this.post({ type: 'mention/pick', key: item.key });
    this.input.dispatchEvent(new Event('input'));
  }

  private close(): void {
    this.at = -1;
    setHidden(this.el, true);
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }
}

/** How well a label matches what was typed (lower first): the whole of it, its start, a name's start, anywhere. */
function mentionRank(label: string, query: string): number | undefined {
  if (label === query || label === `${query}/`) return 0;
  if (label.startsWith(query)) return 1;
  if (label.split('/').some((part) => part.startsWith(query))) return 2;
  return label.includes(query) ? 3 : undefined;
}

/** The caret's place, from a hidden copy of the box laid out the same way (a text box tells no coordinates). */
function caretPoint(input: HTMLTextAreaElement, index: number): { left: number; top: number } {
  const doc = input.ownerDocument;
  const style = doc.defaultView?.getComputedStyle(input);
  const mirror = doc.createElement('div');
  const copied = ['font', 'letterSpacing', 'lineHeight', 'padding', 'border', 'boxSizing', 'width', 'textIndent', 'tabSize'] as const;
  for (const p of copied) mirror.style[p] = style?.[p] ?? '';
  Object.assign(mirror.style, {
    position: 'absolute',
    visibility: 'hidden',
    whiteSpace: 'pre-wrap',
    overflowWrap: 'break-word',
    top: '0',
    left: '0',
  });
  mirror.textContent = input.value.slice(0, index);
  const marker = doc.createElement('span');
  marker.textContent = '@';
  mirror.append(marker);
  doc.body.append(mirror);
  const point = { left: marker.offsetLeft, top: marker.offsetTop };
  mirror.remove();
  return point;
}
