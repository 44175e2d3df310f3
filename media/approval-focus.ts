// When a card starts waiting for approval the keyboard should be able to decide at once: focus
// moves to its Approve button if the view has focus and the user is not typing a message; when
// an editor (or the composer) has the keyboard, the wait is announced instead of stealing it.
import { h } from './dom.js';
import type { IntentCard } from './intent-card.js';

export class ApprovalFocus {
  /** A polite live region screen readers announce; visually hidden. */
  readonly el = h('div', { class: 'visually-hidden', attrs: { 'aria-live': 'assertive', role: 'status' } });
  private readonly seen = new Set<string>();

  constructor(
    private readonly hasFocus: () => boolean,
    private readonly typing: () => boolean,
  ) {}

  /** Whether this card's waiting has not been acted on yet (note() has not seen it). */
  isNew(id: string): boolean {
    return !this.seen.has(id);
  }

  announce(text: string): void {
    this.el.textContent = text;
  }

  /** Called for every card that changed; acts once per waiting spell of a card. */
  note(id: string, card: IntentCard, label: string): void {
    if (!card.waiting) {
      this.seen.delete(id);
      return;
    }
    if (this.seen.has(id)) return;
    this.seen.add(id);
    if (this.hasFocus() && !this.typing()) card.focusApprove();
    else this.el.textContent = `Keel asks for approval: ${label}`;
  }
}
