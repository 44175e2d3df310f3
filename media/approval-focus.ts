// When a card starts waiting for approval the keyboard stays where it is: whatever the user is
// typing in (the composer, an editor) keeps it, so no keystroke meant for something else can
// decide the card. The wait is announced to screen readers instead; the card comes into view
// (transcript-view.ts), and the approval keys or a click decide it.
import { h } from './dom.js';
import type { IntentCard } from './intent-card.js';

export class ApprovalFocus {
  /** A live region screen readers announce; visually hidden. */
  readonly el = h('div', { class: 'visually-hidden', attrs: { 'aria-live': 'assertive', role: 'status' } });
  private readonly seen = new Set<string>();

  /** Whether this card's waiting has not been acted on yet (note() has not seen it). */
  isNew(id: string): boolean {
    return !this.seen.has(id);
  }

  announce(text: string): void {
    this.el.textContent = text;
  }

  /** Called for every card that changed; announces once per waiting spell of a card. */
  note(id: string, card: IntentCard, label: string): void {
    if (!card.waiting) {
      this.seen.delete(id);
      return;
    }
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.el.textContent = `Keel asks for approval: ${label}`;
  }
}
