// Issue 34, problem 4: a reader at the bottom stays at the bottom whatever changes size — the
// composer growing, the context details opening, the to-do pin or chips appearing, the window
// resized — all of which shrink the transcript's box without a scroll event; a reader above keeps
// their place and is shown "New messages" when something new arrives. jsdom has no layout, so the
// scroll box's geometry is set by hand and ResizeObserver is a fake the test fires as the browser
// would after a layout.
import './dom-env.js';
import assert from 'node:assert/strict';
import { makeApp, q } from './dom-env.js';
import { deltas, intentItem, snapshot } from './fixtures.js';

/** A ResizeObserver whose callbacks the test runs (the browser runs them after layout). */
class FakeResizeObserver {
  static all: FakeResizeObserver[] = [];
  readonly observed = new Set<Element>();
  constructor(private readonly callback: (entries: { target: Element }[]) => void) {
    FakeResizeObserver.all.push(this);
  }
  observe(el: Element): void {
    this.observed.add(el);
  }
  unobserve(el: Element): void {
    this.observed.delete(el);
  }
  disconnect(): void {
    this.observed.clear();
  }
  /** The browser laid out again and `el` had changed size. */
  static resized(el: Element): void {
    for (const o of FakeResizeObserver.all) if (o.observed.has(el)) o.callback([{ target: el }]);
  }
}

function geometry(el: HTMLElement) {
  const box = { scrollTop: 0, scrollHeight: 1000, clientHeight: 400 };
  Object.defineProperty(el, 'scrollHeight', { get: () => box.scrollHeight });
  Object.defineProperty(el, 'clientHeight', { get: () => box.clientHeight });
  Object.defineProperty(el, 'scrollTop', {
    get: () => box.scrollTop,
    set: (v: number) => {
      box.scrollTop = Math.max(0, Math.min(v, box.scrollHeight - box.clientHeight));
    },
  });
  return box;
}

const bottomInView = (box: { scrollTop: number; scrollHeight: number; clientHeight: number }) =>
  box.scrollHeight - box.scrollTop - box.clientHeight <= 1;

describe('webview: the transcript keeps its bottom in view when its box changes size (issue 34)', () => {
  const g = globalThis as { ResizeObserver?: unknown };
  let saved: unknown;
  beforeEach(() => {
    saved = g.ResizeObserver;
    g.ResizeObserver = FakeResizeObserver;
    FakeResizeObserver.all = [];
  });
  afterEach(() => {
    g.ResizeObserver = saved;
  });

  function atBottomWithCard() {
    const t = makeApp();
    const log = q(t.root, '[data-testid="transcript"]');
    const box = geometry(log);
    t.receive(snapshot([{ kind: 'user', id: 'u1', text: 'go' }, intentItem('i1')], { status: 'waiting_for_approval' }));
    t.frame();
    assert.ok(bottomInView(box), 'at the bottom to begin with');
    return { t, log, box };
  }

  // What shrinks the box is outside it (the composer, the details, the pin, the window): to the
  // transcript each is its own box getting shorter, which the real-browser checks tell apart.
  it('stays at the bottom when its box gets shorter (the composer grows, a pin appears, the window shrinks)', () => {
    const { log, box } = atBottomWithCard();
    // 120 px shorter; the browser keeps scrollTop, so the bottom 120 px are hidden, with no scroll event.
    box.clientHeight = 280;
    FakeResizeObserver.resized(log);
    assert.ok(bottomInView(box), `the bottom is in view again (scrollTop ${box.scrollTop})`);
    box.clientHeight = 200;
    FakeResizeObserver.resized(log);
    assert.ok(bottomInView(box), `and again after a second change (scrollTop ${box.scrollTop})`);
  });

  it('a reader scrolled up keeps their place when the box changes size, and sees New messages when something arrives', () => {
    const { t, log, box } = atBottomWithCard();
    box.scrollTop = 100;
    log.dispatchEvent(new window.Event('scroll'));
    box.clientHeight = 280;
    FakeResizeObserver.resized(log);
    assert.equal(box.scrollTop, 100, 'the reader stays where they are');
    const jump = q(t.root, '[data-testid="jump-latest"]');
    box.scrollHeight = 1200;
    t.receive(deltas()({ type: 'item/add', item: { kind: 'assistant', id: 'a1', text: 'Done.' } }));
    t.frame();
    assert.equal(jump.hidden, false, 'New messages is offered');
    assert.equal(box.scrollTop, 100);
  });
});
