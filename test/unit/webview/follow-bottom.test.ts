// Following the stream is the reader's choice, not a measurement: items laid out late
// (content-visibility) grow the transcript after the view pinned it to the bottom, and a long
// transcript must keep following anyway until the reader scrolls up.
import './dom-env.js';
import assert from 'node:assert/strict';
import { makeApp, q } from './dom-env.js';
import { deltas, snapshot } from './fixtures.js';

/** A scroll box with settable geometry (jsdom does no layout). */
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

const userScroll = (el: HTMLElement, box: { scrollTop: number }, top: number) => {
  box.scrollTop = top;
  el.dispatchEvent(new window.Event('scroll'));
};

describe('webview: following the bottom of a long transcript', () => {
  it('keeps following when items grow after being pinned (no scroll event in between)', () => {
    const t = makeApp();
    const log = q(t.root, '[data-testid="transcript"]');
    const box = geometry(log);
    t.receive(snapshot([{ kind: 'user', id: 'u1', text: 'go' }], { status: 'running' }));
    t.frame();
    assert.equal(box.scrollTop, 600);
    // Off-screen items got their real height: the content is now 2,000 px, the view did not move.
    box.scrollHeight = 2000;
    const d = deltas();
    t.receive(d({ type: 'item/add', item: { kind: 'assistant', id: 'a1', text: 'more' } }));
    t.frame();
    assert.equal(box.scrollTop, 1600, 'still pinned to the new bottom');
  });

  it('stops following when the reader scrolls up, and resumes at the bottom', () => {
    const t = makeApp();
    const log = q(t.root, '[data-testid="transcript"]');
    const box = geometry(log);
    t.receive(snapshot([{ kind: 'user', id: 'u1', text: 'go' }], { status: 'running' }));
    t.frame();
    userScroll(log, box, 100);
    const d = deltas();
    box.scrollHeight = 1500;
    t.receive(d({ type: 'item/add', item: { kind: 'assistant', id: 'a1', text: 'more' } }));
    t.frame();
    assert.equal(box.scrollTop, 100, 'the reader stays where they are');
    userScroll(log, box, 1100);
    box.scrollHeight = 1800;
    t.receive(d({ type: 'text/append', id: 'a1', text: ' and more' }));
    t.frame();
    assert.equal(box.scrollTop, 1400, 'back at the bottom: following again');
  });
});
