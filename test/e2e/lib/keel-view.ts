// The Keel sidebar as a test sees it: the webview's frame, found again whenever the view (or the
// whole window) is reloaded, and the few gestures a user makes in it.
import type { Frame, Locator } from 'playwright-core';
import { TestIds } from '../../../src/protocol/test-ids.js';
import { clickedAt, type Workbench } from '../../support/browser.js';
import { waitFor } from '../../support/processes.js';

export const byTestId = (id: string): string => `[data-testid="${id}"]`;

export class KeelView {
  private frame: Frame | undefined;

  constructor(readonly workbench: Workbench) {}

  /** Opens the view (if needed) and returns its live frame. */
  async open(timeoutMs = 60_000): Promise<Frame> {
    if (this.frame && !this.frame.isDetached()) return this.frame;
    this.frame = await this.workbench.openKeelView(timeoutMs);
    return this.frame;
  }

  /** The view's frame if it is loaded now (opens nothing: for looking at what is shown). */
  async shown(): Promise<Frame | undefined> {
    if (this.frame && !this.frame.isDetached()) return this.frame;
    return this.workbench.findFrame(byTestId(TestIds.input));
  }

  /** Forgets the frame (after a reload the webview is a new document). */
  forget(): void {
    this.frame = undefined;
  }

  async locator(selector: string): Promise<Locator> {
    return (await this.open()).locator(selector);
  }

  async testId(id: string): Promise<Locator> {
    return this.locator(byTestId(id));
  }

  async assistantText(): Promise<string> {
    const items = await this.testId(TestIds.assistantText);
    return (await items.allInnerTexts()).join('\n');
  }

  async transcriptText(): Promise<string> {
    const transcript = await this.testId(TestIds.transcript);
    return (await transcript.count()) ? transcript.innerText() : '';
  }

  /** Waits until the transcript shows `text` (a substring or a pattern). */
  async waitForText(text: string | RegExp, timeoutMs = 30_000): Promise<void> {
    await waitFor(
      `the Keel view to show ${String(text)}`,
      async () => {
        const shown = await this.transcriptText();
        return typeof text === 'string' ? shown.includes(text) : text.test(shown);
      },
      { timeoutMs, intervalMs: 50 },
    );
  }

  /** The intent card waiting for approval (there is one at a time in these scenarios). */
  async pendingCard(timeoutMs = 30_000, hasText?: string | RegExp): Promise<Locator> {
    let card = (await this.testId(TestIds.intentCard)).and((await this.open()).locator('[data-intent-status="awaiting_approval"]'));
    if (hasText) card = card.filter({ hasText });
    await card.first().waitFor({ state: 'visible', timeout: timeoutMs });
    return card.first();
  }

  /**
   * Waits until `card` lies whole inside the transcript's scrolled box: a card a person must answer
   * is one they can see (off screen, its text is not even laid out).
   */
  async waitOnScreen(card: Locator, timeoutMs = 10_000): Promise<void> {
    const transcript = (await this.testId(TestIds.transcript)).first();
    let last = '';
    await waitFor(
      'the card on screen in the transcript',
      async () => {
        const [box, log] = await Promise.all([card.boundingBox(), transcript.boundingBox()]);
        last = `card ${JSON.stringify(box)} in the transcript ${JSON.stringify(log)}`;
        return !!box && !!log && box.y >= log.y - 1 && box.y + box.height <= log.y + log.height + 1;
      },
      { timeoutMs, intervalMs: 50 },
    ).catch((e: Error) => {
      throw new Error(`${e.message}: ${last}`);
    });
  }

  /** Clicks Approve on the pending card; returns when the click happened (ms since epoch). */
  async approve(hasText?: string | RegExp): Promise<number> {
    const card = await this.pendingCard(30_000, hasText);
    const button = card.locator(byTestId(TestIds.approve)).first();
    await button.waitFor({ state: 'visible' });
    return clickedAt(await this.open(), button);
  }

  /**
   * Starts watching for the first non-empty assistant text; `firstTextAt()` then says when it
   * appeared (ms since epoch), measured in the page rather than by polling from here.
   */
  async watchFirstText(): Promise<void> {
    const frame = await this.open();
    // A string, not a function: tsx would wrap named inner functions in a `__name` helper the
    // page does not have.
    await frame.evaluate(`(() => {
      const selector = ${JSON.stringify(byTestId(TestIds.assistantText))};
      window.__keelFirstTextAt = undefined;
      const seen = () => [...document.querySelectorAll(selector)].some((e) => (e.textContent || '').trim().length > 0);
      const observer = new MutationObserver(() => {
        if (window.__keelFirstTextAt === undefined && seen()) {
          window.__keelFirstTextAt = Date.now();
          observer.disconnect();
        }
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    })()`);
  }

  /** Starts recording every intent card's status changes with the page's clock. */
  async watchStatuses(): Promise<void> {
    const frame = await this.open();
    await frame.evaluate(`(() => {
      window.__keelStatuses = [];
      new MutationObserver((records) => {
        for (const r of records) {
          const el = r.target;
          if (el.getAttribute && el.getAttribute('data-testid') === 'intent-card') {
            window.__keelStatuses.push({ status: el.getAttribute('data-intent-status'), at: Date.now() });
          }
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-intent-status'] });
    })()`);
  }

  async statusChanges(): Promise<{ status: string; at: number }[]> {
    const frame = await this.open();
    return frame.evaluate('window.__keelStatuses || []');
  }

  async firstTextAt(timeoutMs = 30_000): Promise<number> {
    const frame = await this.open();
    return waitFor(
      'the first streamed text',
      () => frame.evaluate(() => (window as unknown as { __keelFirstTextAt?: number }).__keelFirstTextAt),
      { timeoutMs, intervalMs: 20 },
    );
  }

  /**
   * Approves the pending card matching `hasText` if the policy asks for one; returns
   * 'not-asked' once the transcript shows `then` without a card having asked (e.g. a tool the
   * policy lets run on its own).
   */
  async approveIfAsked(
    hasText: string | RegExp,
    then: string | RegExp,
    timeoutMs = 60_000,
    beforeApprove: () => Promise<void> = async () => undefined,
  ): Promise<'approved' | 'not-asked'> {
    const frame = await this.open();
    const card = frame
      .locator(byTestId(TestIds.intentCard))
      .and(frame.locator('[data-intent-status="awaiting_approval"]'))
      .filter({ hasText });
    const outcome = await waitFor(
      `an approval for ${String(hasText)} or ${String(then)}`,
      async () => {
        if (await card.first().isVisible()) return 'asked' as const;
        const shown = await this.transcriptText();
        return (typeof then === 'string' ? shown.includes(then) : then.test(shown)) ? ('not-asked' as const) : undefined;
      },
      { timeoutMs, intervalMs: 50 },
    );
    if (outcome === 'not-asked') return outcome;
    await beforeApprove();
    await card.first().locator(byTestId(TestIds.approve)).first().click();
    return 'approved';
  }

  async reject(reason: string, hasText?: string | RegExp): Promise<void> {
    const card = await this.pendingCard(30_000, hasText);
    const id = await card.getAttribute('data-intent-id');
    await card.locator(byTestId(TestIds.reject)).first().click();
    // Every card has its own (hidden until asked) reason form.
    const input = card.locator(byTestId(TestIds.rejectReason)).first();
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(reason);
    const confirm = card.locator(byTestId(TestIds.rejectConfirm)).first();
    if (await confirm.count()) await confirm.click();
    else await input.press('Enter');
    // Done when the card no longer waits, as a person sees it (the buttons go before the status changes).
    const stillWaiting = (await this.open()).locator(`[data-intent-id="${id}"][data-intent-status="awaiting_approval"]`);
    await stillWaiting.first().waitFor({ state: 'detached', timeout: 30_000 });
  }

  async send(text: string): Promise<void> {
    const input = await this.testId(TestIds.input);
    await input.first().fill(text);
    await (await this.testId(TestIds.send)).first().click();
  }

  async click(id: string, timeoutMs = 15_000): Promise<void> {
    const target = (await this.testId(id)).first();
    await target.waitFor({ state: 'visible', timeout: timeoutMs });
    await target.click();
  }

  /** Card statuses in transcript order, e.g. ['done', 'done', 'awaiting_approval']. */
  async intentStatuses(): Promise<string[]> {
    const cards = await this.testId(TestIds.intentCard);
    const out: string[] = [];
    for (const card of await cards.all()) out.push((await card.getAttribute('data-intent-status')) ?? '?');
    return out;
  }
}
