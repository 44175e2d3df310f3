// The transcript, windowed: only the newest items are rendered on open; older ones are rendered
// in pages when the reader scrolls up to them (or asks with the "earlier" button). A
// 10,000-message task therefore opens by rendering a few dozen items, not ten thousand.
import { TestIds, type TranscriptItem } from '../src/protocol/index.js';
import { actionButton, h, setHidden } from './dom.js';
import { createItemView, type ItemView } from './item-views.js';
import { ReadGroups } from './read-groups.js';
import { FrameNesting } from './frame-view.js';
import type { Changes, ViewModel } from './view-model.js';

/** Schedules a callback for the next animation frame (tests run frames by hand). */
export type RequestFrame = (cb: () => void) => void;

/** Items rendered when a transcript opens (more than a tall sidebar shows). */
export const INITIAL_ITEMS = 30;
/** Items the "Show earlier messages" button adds. */
export const PAGE_SIZE = 40;
/** Main-thread time one frame may spend rendering earlier items while the reader scrolls up. */
const FILL_BUDGET_MS = 6;
/** How far above the viewport (px) earlier items are rendered ahead of the reader. */
const FILL_AHEAD_PX = 800;
/** How close to the bottom (px) still counts as "following" the stream. */
const STICK_PX = 48;

export class TranscriptView {
  /** The conversation: the scrolling transcript and, over its bottom edge, the jump to the latest. */
  readonly el: HTMLElement;
  /** The scrolling log itself. */
  readonly scroller: HTMLElement;
  private readonly list = h('div', { class: 'transcript-list' });
  private readonly earlier: HTMLButtonElement;
  /** "New messages ↓": shown while the reader is scrolled up and something new arrived. */
  private readonly jump: HTMLButtonElement;
  private readonly views = new Map<string, ItemView>();
  /** Leading items of the model not rendered yet. */
  private hiddenCount = 0;
  private observer: IntersectionObserver | undefined;
  /** Re-pins while following when the list's or the box's height changes after layout. */
  private resized: ResizeObserver | undefined;
  private filling = false;
  private readonly readGroups = new ReadGroups();
  /**
   * Whether the reader follows the stream. Kept as state, changed only by the reader's own
   * scrolling: off-screen items (content-visibility) get their real height only after layout,
   * so "is the bottom in view" measured at apply time says no after every such correction.
   */
  private following = true;
  /** The scrollTop this view last set when pinning to the bottom. */
  private pinnedTop = 0;
  /** Sub-agent runs and their cards go under the call that started them. */
  private readonly nesting = new FrameNesting();

  constructor(
    private readonly model: ViewModel,
    private readonly requestFrame: RequestFrame,
  ) {
    this.earlier = actionButton('load-earlier', 'Show earlier messages', { text: 'Show earlier messages', class: 'button link earlier' });
    this.scroller = h(
      'div',
      {
        class: 'transcript',
        attrs: { role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation', 'data-testid': TestIds.transcript, tabindex: '0' },
      },
      this.earlier,
      this.list,
    );
    this.jump = actionButton('jump-latest', 'Scroll to the latest messages', {
      text: 'New messages',
      icon: 'arrow-down',
      class: 'button jump-latest',
      testId: TestIds.jumpLatest,
    });
    this.jump.hidden = true;
    this.el = h('div', { class: 'conversation' }, this.scroller, this.jump);
    if (typeof IntersectionObserver === 'function') {
      this.observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) this.scheduleFill();
        },
        { root: this.scroller, rootMargin: `${FILL_AHEAD_PX}px 0px 0px 0px` },
      );
      this.observer.observe(this.earlier);
    }
    this.scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
    if (typeof ResizeObserver === 'function') {
      // Neither change fires a scroll event, so a reader at the bottom is pinned again after it:
      // items laid out late (content-visibility) grow the list, and whatever shares the column
      // (the composer growing, the context details, the to-do pin, chips, a resized window)
      // makes the transcript's own box shorter.
      this.resized = new ResizeObserver(() => {
        if (this.following) this.pin();
      });
      this.resized.observe(this.list);
      this.resized.observe(this.scroller);
    }
  }

  view(id: string): ItemView | undefined {
    return this.views.get(id);
  }

  /**
   * Applies one batch of changes; keeps the reader at the bottom if they were there. The reader's
   * own message brings the view back to the bottom (they want to see the answer to it); anything
   * else new while they read above shows "New messages" instead of moving them.
   */
  apply(changes: Changes): void {
    const sentByReader = changes.structural.some((c) => c.type === 'add' && c.item.kind === 'user');
    if (changes.reset || sentByReader) this.following = true;
    // After a snapshot every view is rebuilt from the model, which already holds later deltas.
    if (changes.reset) this.rebuild();
    else this.applyPiecemeal(changes);
    if (changes.reset || changes.structural.length > 0 || changes.intents.size > 0) this.readGroups.regroup(this.list);
    if (this.following) this.pin();
    else if (changes.structural.length > 0 || changes.appended.size > 0 || changes.intents.size > 0) setHidden(this.jump, false);
  }

  /**
   * A card started waiting for the user: it comes into view even when the reader is above (an
   * approval nobody sees is a run stuck); at the bottom, the view follows again.
   */
  reveal(id: string): void {
    const el = this.views.get(id)?.el;
    if (!el || this.following) return;
    el.scrollIntoView?.({ block: 'nearest' });
    if (this.atBottom()) this.jumpToLatest();
  }

  /**
   * The reader opened something inside the transcript (an Edit box): it comes into view and
   * stays there, rather than the view pinning the bottom as the box grows the list.
   */
  bringIntoView(el: Element): void {
    this.following = false;
    el.scrollIntoView?.({ block: 'nearest' });
    if (this.atBottom()) this.jumpToLatest();
  }

  /** "New messages": back to the bottom, following again. */
  jumpToLatest(): void {
    this.following = true;
    this.pin();
  }

  /** The group line of finished reads starting at card `firstId` was clicked. */
  toggleReadGroup(firstId: string): void {
    this.readGroups.toggle(this.list, firstId);
  }

  private pin(): void {
    this.scroller.scrollTop = this.scroller.scrollHeight;
    this.pinnedTop = this.scroller.scrollTop;
    setHidden(this.jump, true);
  }

  /** Scrolling up (above where the view pinned) stops following; reaching the bottom resumes it. */
  private onScroll(): void {
    if (this.atBottom()) {
      this.following = true;
      setHidden(this.jump, true);
    } else if (this.scroller.scrollTop < this.pinnedTop) this.following = false;
  }

  private applyPiecemeal(changes: Changes): void {
    for (const change of changes.structural) {
      if (change.type === 'add') this.mount(change.item);
      else this.unmount(change.id, changes.wasAdded(change.id));
    }
    for (const [id, text] of changes.appended) this.views.get(id)?.appendText?.(text);
    for (const id of changes.textDone) this.views.get(id)?.endText?.();
    for (const id of changes.intents) {
      const item = this.model.get(id);
      if (item) this.views.get(id)?.update?.(item);
      if (item) this.nesting.updated(item);
    }
    for (const id of changes.appended.keys()) this.views.get(id)?.render?.();
  }

  /** Renders the previous `count` items above the current ones, keeping the scroll position. */
  showEarlier(count = PAGE_SIZE): void {
    let left = count;
    this.prepend(() => --left > 0);
  }

  /**
   * Renders earlier items a few milliseconds per frame while the top of the transcript is near
   * the viewport, so scrolling up never blocks the main thread on a page of markdown.
   */
  private scheduleFill(): void {
    if (this.filling || this.hiddenCount === 0) return;
    this.filling = true;
    this.requestFrame(() => {
      this.filling = false;
      const deadline = performance.now() + FILL_BUDGET_MS;
      this.prepend(() => performance.now() < deadline);
      if (this.nearTop()) this.scheduleFill();
    });
  }

  private prepend(more: () => boolean): void {
    if (this.hiddenCount === 0) return;
    const heightBefore = this.scroller.scrollHeight;
    const fragment = document.createDocumentFragment();
    do {
      this.hiddenCount -= 1;
      fragment.prepend(this.create(this.model.itemAt(this.hiddenCount)!).el);
    } while (this.hiddenCount > 0 && more());
    this.list.prepend(fragment);
    this.readGroups.regroup(this.list);
    setHidden(this.earlier, this.hiddenCount === 0);
    this.scroller.scrollTop += this.scroller.scrollHeight - heightBefore;
    this.pinnedTop = Math.min(this.pinnedTop, this.scroller.scrollTop);
  }

  private nearTop(): boolean {
    return this.hiddenCount > 0 && this.scroller.scrollTop < FILL_AHEAD_PX;
  }

  /** Views that tick every second (running intents). */
  forEachView(fn: (view: ItemView) => void): void {
    for (const view of this.views.values()) fn(view);
  }

  private rebuild(): void {
    this.views.clear();
    this.nesting.reset();
    const count = this.model.count;
    this.hiddenCount = Math.max(0, count - INITIAL_ITEMS);
    const fragment = document.createDocumentFragment();
    for (let i = this.hiddenCount; i < count; i++) this.attach(this.model.itemAt(i)!, fragment);
    this.list.replaceChildren(fragment);
    setHidden(this.earlier, this.hiddenCount === 0);
    // New items measure at their placeholder height until the next layout, so the pin that follows
    // a rebuild lands short of the bottom. When the list then ends as tall as before (the same task
    // sent again), ResizeObserver has no change to report and nothing would re-pin: observing
    // anew makes it report once after that layout.
    this.resized?.unobserve(this.list);
    this.resized?.observe(this.list);
  }

  private mount(item: TranscriptItem): void {
    if (this.views.has(item.id) || !this.model.get(item.id)) return;
    this.attach(item, this.list);
  }

  /** Renders an item where it belongs: nested under its sub-agent or call, else at the end of `into`. */
  private attach(item: TranscriptItem, into: ParentNode): void {
    const view = this.create(item);
    if (!this.nesting.place(item, view, this.views)) into.append(view.el);
    this.nesting.mounted(item, view);
  }

  /** `addedInBatch`: the item came and went before it could be rendered (never hidden). */
  private unmount(id: string, addedInBatch: boolean): void {
    const view = this.views.get(id);
    if (view) {
      view.el.remove();
      this.views.delete(id);
    } else if (!addedInBatch && this.hiddenCount > 0) {
      this.hiddenCount -= 1;
    }
  }

  private create(item: TranscriptItem): ItemView {
    const view = createItemView(item);
    this.views.set(item.id, view);
    return view;
  }

  private atBottom(): boolean {
    return this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight <= STICK_PX;
  }
}
