// A jsdom page installed as the global DOM for webview tests. Import it before any media module.
import { JSDOM } from 'jsdom';
import { App } from '../../../media/app.js';
import type { WebviewMessage } from '../../../src/protocol/index.js';

const dom = new JSDOM('<!DOCTYPE html><html><body></body></html>', { pretendToBeVisual: true, url: 'https://webview.test/' });
const g = globalThis as Record<string, unknown>;
for (const name of [
  'window',
  'document',
  'Node',
  'Element',
  'HTMLElement',
  'DocumentFragment',
  'KeyboardEvent',
  'MouseEvent',
  'Event',
  'getComputedStyle',
  'HTMLPreElement',
]) {
  if (name === 'window') g[name] = dom.window;
  else g[name] = (dom.window as unknown as Record<string, unknown>)[name];
}

export interface TestApp {
  app: App;
  root: HTMLElement;
  posted: WebviewMessage[];
  logs: string[];
  saved: unknown[];
  /** Runs the pending animation frame callbacks. */
  frame(): void;
  /** Sends a host message (as if posted by the extension). */
  receive(message: unknown): void;
}

const live: App[] = [];
// Apps tick elapsed times with a timer; end them so mocha can exit.
afterEach(() => {
  for (const app of live.splice(0)) app.dispose();
});

/** Fakes the app may be given: its wall clock and whether the webview has the keyboard. */
export interface AppFakes {
  now?: () => number;
  hasFocus?: () => boolean;
}

export function makeApp(initialState?: unknown, fakes: AppFakes = {}): TestApp {
  let frames: (() => void)[] = [];
  const posted: WebviewMessage[] = [];
  const logs: string[] = [];
  const saved: unknown[] = [];
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  const app = new App({
    host: { post: (m) => posted.push(m), getState: () => initialState, setState: (s) => saved.push(s) },
    root,
    requestFrame: (cb) => frames.push(cb),
    log: (m) => logs.push(m),
    ...fakes,
  });
  app.start();
  live.push(app);
  return {
    app,
    root,
    posted,
    logs,
    saved,
    frame: () => {
      const run = frames;
      frames = [];
      for (const cb of run) cb();
    },
    receive: (message) => app.receive(message),
  };
}

export const q = <T extends Element = HTMLElement>(root: ParentNode, selector: string): T => {
  const el = root.querySelector<T>(selector);
  if (!el) throw new Error(`no element matches ${selector}`);
  return el;
};

export function click(el: Element): void {
  el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
}

export function key(el: Element, keyName: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: keyName, bubbles: true, cancelable: true, ...init });
  el.dispatchEvent(event);
  return event;
}
