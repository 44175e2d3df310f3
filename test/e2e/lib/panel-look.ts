// What a person sees of the Keel panel, measured in the real browser rather than read from the
// DOM: how tall the conversation is against the side bar, whether each waiting card shows its
// whole command and its buttons inside the visible part of the view, whether anything scrolls
// sideways, whether the focused control's ring stands out from what is behind it, what has the
// keyboard, what the activity line says, and whether the conversation's end is in view.
// `lookAtPanel` measures; `panelProblems` says what is wrong, in words, for an assertion.
import type { Frame, Page } from 'playwright-core';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface WaitingCardLook {
  id: string;
  /** The command (or, without one, the summary) is inside the visible conversation, whole. */
  textWhole: boolean;
  /** Approve and Reject are inside the visible conversation, whole. */
  buttonsWhole: boolean;
}

interface FocusLook {
  /** e.g. `button.button "Approve"` */
  what: string;
  ringWidth: number;
  /** WCAG contrast of the ring against the colour behind it (≥ 3 is visible). */
  ringContrast: number;
}

export interface PanelLook {
  sideBar: Box;
  /** The webview's visible part (its iframes clipped to each other and the window). */
  webview: Box;
  /** The conversation's visible part. */
  transcript: Box;
  /** transcript height / side bar height. */
  transcriptShare: number;
  /** Pixels the page or the conversation would scroll sideways. */
  overflowX: number;
  waiting: WaitingCardLook[];
  /** The focused control, when the view holds the keyboard and shows a focus ring. */
  focus?: FocusLook;
  /** What has the keyboard in the view (a data-testid, else the tag); '' when the view does not. */
  keyboardIn: string;
  /** The activity line's words, when it shows. */
  activity?: string;
  /** Pixels of the conversation below its visible part (0: its end is in view). */
  belowBottom: number;
}

export interface LookRules {
  /** Least share of the side bar's height the conversation must get (default 0.7). */
  minTranscriptShare?: number;
  /** The composer must have the keyboard (the user was typing there). */
  composerFocused?: boolean;
  /** The activity line must show, in these words. */
  activity?: RegExp;
  /** The conversation's end must be in view (the user was at the bottom). */
  atBottom?: boolean;
}

const intersect = (a: Box, b: Box): Box => {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
};

/** The part of the page a frame's document shows: its iframe, and every iframe above it, clipped. */
async function visibleFrameBox(page: Page, frame: Frame): Promise<Box | undefined> {
  const viewport = page.viewportSize();
  let box: Box = { x: 0, y: 0, width: viewport?.width ?? 0, height: viewport?.height ?? 0 };
  for (let f: Frame | null = frame; f && f !== page.mainFrame(); f = f.parentFrame()) {
    const element = await f.frameElement().catch(() => undefined);
    const outer = await element?.boundingBox();
    if (!outer) return undefined;
    box = intersect(box, outer);
  }
  return box;
}

/**
 * Measures inside the view's document; boxes are in the document's own coordinates, made page
 * coordinates by adding the iframe's offset. A string, not a function: tsx would wrap named
 * inner functions in a `__name` helper the page does not have.
 */
const MEASURE = `(() => {
  const rect = (el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
  // rgb(…)/rgba(…) in 0–255; color(srgb …) (what color-mix computes to) in 0–1.
  const channels = (color) => { const n = (color.match(/[\\d.]+/g) || []).map(Number); return color.startsWith('color(') ? n.map((v, i) => (i < 3 ? v * 255 : v)) : n; };
  const luminance = (rgb) => {
    const [r, g, b] = rgb.slice(0, 3).map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const backgroundBehind = (el) => {
    for (let n = el; n; n = n.parentElement) {
      const c = channels(getComputedStyle(n).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) return c;
    }
    return channels(getComputedStyle(document.body).backgroundColor);
  };
  const transcript = document.querySelector('[data-testid="transcript"]');
  const scroller = document.scrollingElement;
  const overflowX = Math.max(
    scroller ? scroller.scrollWidth - scroller.clientWidth : 0,
    transcript ? transcript.scrollWidth - transcript.clientWidth : 0,
  );
  const waiting = [...document.querySelectorAll('[data-testid="intent-card"][data-intent-status="awaiting_approval"]')]
    .filter((card) => card.getClientRects().length > 0)
    .map((card) => {
      const text = card.querySelector('[data-testid="intent-command"]:not([hidden])') || card.querySelector('[data-testid="intent-summary"]:not([hidden])') || card;
      const buttons = [...card.querySelectorAll('button[data-testid="approve"], button[data-testid="reject"]')];
      return { id: card.getAttribute('data-intent-id') || '', text: rect(text), buttons: buttons.map(rect) };
    });
  let focus;
  const el = document.activeElement;
  if (document.hasFocus() && el && el !== document.body && el.matches(':focus-visible')) {
    const style = getComputedStyle(el);
    const raw = style.outlineStyle !== 'none' ? channels(style.outlineColor) : [];
    // A translucent ring is seen mixed with what is behind it.
    const behind = backgroundBehind(el.parentElement || el);
    const alpha = raw.length > 3 ? raw[3] : 1;
    const ring = raw.length >= 3 ? raw.slice(0, 3).map((v, i) => v * alpha + behind[i] * (1 - alpha)) : [];
    const label = (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
    focus = {
      what: el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '') + ' "' + label + '"',
      ringWidth: style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth),
      ringContrast: ring.length >= 3 ? contrast(ring, behind) : 1,
    };
  }
  const active = document.hasFocus() ? document.activeElement : null;
  const keyboardIn = !active || active === document.body ? '' : active.getAttribute('data-testid') || active.tagName.toLowerCase();
  const line = document.querySelector('[data-testid="status-line"]');
  const activity = line && !line.hidden && line.getClientRects().length > 0 ? (line.querySelector('.status-line-text') || line).textContent.trim() : undefined;
  const belowBottom = transcript ? Math.max(0, Math.round(transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight)) : 0;
  return { transcript: transcript ? rect(transcript) : undefined, overflowX, waiting, focus, keyboardIn, activity, belowBottom };
})()`;

interface Measured {
  transcript?: Box;
  overflowX: number;
  waiting: { id: string; text: Box; buttons: Box[] }[];
  focus?: FocusLook;
  keyboardIn: string;
  activity?: string;
  belowBottom: number;
}

const shift = (b: Box, by: Box): Box => ({ ...b, x: b.x + by.x, y: b.y + by.y });
const whole = (inner: Box, outer: Box): boolean =>
  inner.width > 0 &&
  inner.x >= outer.x - 1 &&
  inner.y >= outer.y - 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1;

/** Measures the panel as shown now; undefined when the Keel chat view is not on screen. */
export async function lookAtPanel(page: Page, frame: Frame | undefined): Promise<PanelLook | undefined> {
  if (!frame || frame.isDetached()) return undefined;
  const sideBar = await page.locator('.part.sidebar').first().boundingBox();
  const webview = await visibleFrameBox(page, frame);
  const origin = await frame
    .frameElement()
    .then((e) => e.boundingBox())
    .catch(() => null);
  if (!sideBar || !webview || !origin || webview.height < 1) return undefined;
  const m = (await frame.evaluate(MEASURE)) as Measured;
  if (!m.transcript) return undefined;
  const transcript = intersect(shift(m.transcript, origin), webview);
  return {
    sideBar,
    webview,
    transcript,
    transcriptShare: transcript.height / sideBar.height,
    overflowX: m.overflowX,
    waiting: m.waiting.map((card) => ({
      id: card.id,
      textWhole: whole(shift(card.text, origin), transcript),
      buttonsWhole: card.buttons.length > 0 && card.buttons.every((b) => whole(shift(b, origin), transcript)),
    })),
    ...(m.focus ? { focus: m.focus } : {}),
    keyboardIn: m.keyboardIn,
    ...(m.activity ? { activity: m.activity } : {}),
    belowBottom: m.belowBottom,
  };
}

/** What is wrong with what a person sees, one sentence each; [] when nothing is. */
export function panelProblems(look: PanelLook, rules: LookRules = {}): string[] {
  const problems: string[] = [];
  const min = rules.minTranscriptShare ?? 0.7;
  if (look.transcriptShare < min)
    problems.push(
      `the conversation is ${Math.round(look.transcript.height)} px of a ${Math.round(look.sideBar.height)} px side bar ` +
        `(${Math.round(look.transcriptShare * 100)}%, wanted ≥ ${Math.round(min * 100)}%)`,
    );
  if (look.overflowX > 1) problems.push(`the view scrolls ${look.overflowX} px sideways`);
  for (const card of look.waiting) {
    if (!card.textWhole) problems.push(`the waiting card ${card.id} does not show its whole command inside the view`);
    if (!card.buttonsWhole) problems.push(`the waiting card ${card.id} does not show Approve and Reject inside the view`);
  }
  const focus = look.focus;
  if (focus && (focus.ringWidth < 1 || focus.ringContrast < 3))
    problems.push(
      `the focused ${focus.what} has a ${focus.ringWidth} px ring at contrast ${focus.ringContrast.toFixed(2)} (wanted ≥ 1 px, ≥ 3:1)`,
    );
  if (rules.composerFocused && look.keyboardIn !== 'input')
    problems.push(`the composer lost the keyboard (it is on ${look.keyboardIn || 'nothing in the view'})`);
  if (rules.activity && !rules.activity.test(look.activity ?? ''))
    problems.push(
      `the activity line says ${look.activity === undefined ? 'nothing' : JSON.stringify(look.activity)}, wanted ${rules.activity}`,
    );
  if (rules.atBottom && look.belowBottom > 2) problems.push(`the conversation's end is ${look.belowBottom} px below the view`);
  return problems;
}

/** One line for steps.log: the figures a reader of the screenshots wants. */
export function describeLook(look: PanelLook): string {
  const share = `${Math.round(look.transcript.height)}/${Math.round(look.sideBar.height)} px (${Math.round(look.transcriptShare * 100)}%)`;
  const focus = look.focus ? `; focus ${look.focus.what} ring ${look.focus.ringWidth}px ${look.focus.ringContrast.toFixed(1)}:1` : '';
  const activity = look.activity ? `; activity "${look.activity}"` : '';
  return `conversation ${share}; waiting cards ${look.waiting.length}; sideways ${look.overflowX}px; below ${look.belowBottom}px; keyboard ${look.keyboardIn || '-'}${focus}${activity}`;
}
