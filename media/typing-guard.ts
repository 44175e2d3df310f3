// Keys decide only where the user put them. Text typed while the keyboard is on something one does
// not type into (the page, a card, a link, a button the view focused by itself or that was just
// clicked) goes into the composer, whole; Space and Enter press a control only when the user moved
// the keyboard there with Tab — a control reached by a click was already pressed by the click, and
// a key after it is the next word. So a sentence typed while a card starts waiting, or after
// clicking a welcome prompt, a card or a link, lands in the message and decides nothing.
// The approval keys (Alt+Shift+Y/N/A) carry modifiers and pass untouched.

/** What the guard hands typed text to. */
export interface TypingTarget {
  readonly input: HTMLTextAreaElement;
  /** Puts the keyboard in the box, the caret at the end. */
  focus(): void;
}

/** Controls that Space or Enter would press (a native button, a link, a summary, a checkbox…). */
const PRESSABLE = 'button, a[href], summary, input[type="checkbox"], input[type="radio"], [role="button"], [tabindex]';

export class TypingGuard {
  /** The control the user last moved the keyboard to with Tab (null: it got there otherwise). */
  private chosen: Element | null = null;
  /** A Tab is down: the focus change it makes is the user's own. */
  private tabbing = false;

  constructor(
    doc: Document,
    private readonly target: TypingTarget,
  ) {
    doc.addEventListener('keydown', (e) => this.onKey(e), true);
    doc.addEventListener('keyup', () => this.settled(), true);
    doc.addEventListener('focusin', (e) => this.onFocus(e), true);
  }

  private settled(): void {
    this.tabbing = false;
  }

  private onFocus(e: FocusEvent): void {
    this.chosen = this.tabbing ? (e.target as Element | null) : null;
  }

  private onKey(e: KeyboardEvent): void {
    this.tabbing = e.key === 'Tab';
    if (this.tabbing) return;
    const typed = typedText(e);
    const presses = e.key === 'Enter' || e.key === ' ';
    if (typed === undefined && !presses) return;
    const active = document.activeElement;
    if (!active || isTextField(active) || active === this.target.input) return;
    const pressable = active.matches(PRESSABLE);
    // A control the user tabbed to: Space and Enter press it (the reason a keyboard user went there).
    if (presses && pressable && active === this.chosen) return;
    // Enter on something that is no control (the page, the transcript) means nothing here.
    if (typed === undefined && !pressable) return;
    e.preventDefault();
    e.stopPropagation();
    this.target.focus();
    if (typed !== undefined) insert(this.target.input, typed);
  }
}

/** The character a keydown types, or undefined (a shortcut, a navigation key, a dead key). */
function typedText(e: KeyboardEvent): string | undefined {
  if (e.isComposing || [...e.key].length !== 1) return undefined;
  // Ctrl+Alt is AltGr on some layouts (it types @, €…); any other modifier is a shortcut.
  const altGr = e.ctrlKey && e.altKey;
  if (!altGr && (e.ctrlKey || e.altKey || e.metaKey)) return undefined;
  return e.key;
}

const NOT_TEXT_INPUTS = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'image', 'file']);

function isTextField(el: Element): boolean {
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !NOT_TEXT_INPUTS.has((el as HTMLInputElement).type);
  return (el as HTMLElement).isContentEditable === true;
}

/** Types `text` at the caret, as the browser would have, and tells the composer it changed. */
function insert(input: HTMLTextAreaElement, text: string): void {
  const start = input.selectionStart ?? input.value.length;
  const end = input.selectionEnd ?? start;
  input.setRangeText(text, start, end, 'end');
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
