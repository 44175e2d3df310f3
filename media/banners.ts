// Notices that belong to the session rather than the transcript: an endpoint setting Keel cannot
// send to (said instead of a key problem), no API key, Restricted Mode,
// an interrupted task to resume, "retrying in N s", and the code index parsing the workspace.
import { TestIds, type Hints } from '../src/protocol/index.js';
import { actionButton, h, icon, setHidden } from './dom.js';
import type { ViewModel } from './view-model.js';

export class Banners {
  readonly el: HTMLElement;
  private readonly apiKey: HTMLElement;
  private readonly endpoint: HTMLElement;
  private readonly endpointText = h('span', { class: 'notice-text' });
  private readonly restricted: HTMLElement;
  private readonly resume: HTMLElement;
  private readonly retry: HTMLElement;
  private readonly retryText = h('span', { class: 'notice-text' });
  private readonly indexing: HTMLElement;
  private readonly indexingText = h('span', { class: 'notice-text' });

  constructor() {
    this.apiKey = h(
      'div',
      { class: 'banner level-warning', attrs: { role: 'status', 'data-testid': TestIds.notice, 'data-notice': 'no-api-key' } },
      icon('key'),
      h('span', { class: 'notice-text', text: 'Keel needs an API key to talk to the model.' }),
      actionButton('notice', 'Set API Key', { text: 'Set API Key', testId: TestIds.setApiKey, data: { message: 'apiKey/set' } }),
    );
    this.endpoint = h(
      'div',
      { class: 'banner level-warning', attrs: { role: 'status', 'data-testid': TestIds.notice, 'data-notice': 'endpoint' } },
      icon('plug'),
      this.endpointText,
    );
    this.restricted = h(
      'div',
      { class: 'banner level-info', attrs: { role: 'status', 'data-testid': TestIds.restrictedNotice } },
      icon('shield'),
      h('span', {
        class: 'notice-text',
        text: 'Restricted Mode: Keel can read this workspace but will not edit files or run commands until you trust it.',
      }),
    );
    this.resume = h(
      'div',
      { class: 'banner level-info', attrs: { role: 'status', 'data-testid': TestIds.notice, 'data-notice': 'interrupted' } },
      icon('debug-pause'),
      h('span', { class: 'notice-text', text: 'This task was interrupted.' }),
      actionButton('notice', 'Resume task', { text: 'Resume', testId: TestIds.resume, data: { message: 'task/resume' } }),
    );
    this.retry = h(
      'div',
      { class: 'banner level-warning', attrs: { role: 'status', 'data-testid': TestIds.retryNotice } },
      icon('sync', 'codicon-modifier-spin'),
      this.retryText,
    );
    this.indexing = h(
      'div',
      { class: 'banner level-info', attrs: { role: 'status', 'data-testid': TestIds.notice, 'data-notice': 'indexing' } },
      icon('sync', 'codicon-modifier-spin'),
      this.indexingText,
    );
    this.el = h('div', { class: 'banners' }, this.endpoint, this.apiKey, this.restricted, this.resume, this.retry, this.indexing);
    this.updateHints({ noApiKey: false, restricted: false, canResume: false });
    this.retry.hidden = true;
  }

  updateHints(hints: Hints): void {
    this.endpointText.textContent = hints.endpoint ?? '';
    setHidden(this.endpoint, !hints.endpoint);
    setHidden(this.apiKey, !hints.noApiKey || !!hints.endpoint);
    setHidden(this.restricted, !hints.restricted);
    setHidden(this.resume, !hints.canResume);
    const indexing = hints.indexing;
    const count = (n: number) => Math.max(0, Math.floor(n)).toLocaleString('en-US');
    this.indexingText.textContent = indexing ? `Indexing the workspace: ${count(indexing.parsed)} of ${count(indexing.total)} files…` : '';
    setHidden(this.indexing, !indexing);
  }

  /** Returns true while a countdown is showing (the app keeps ticking it). */
  updateRetry(model: ViewModel, localNow: number): boolean {
    const retry = model.retry;
    setHidden(this.retry, !retry);
    if (!retry) return false;
    const left = Math.max(0, Math.ceil((retry.receivedAt + retry.notice.delayMs - localNow) / 1000));
    const when = left > 0 ? `Retrying in ${left} s` : 'Retrying now';
    this.retryText.textContent = `${retry.notice.message} — ${when} (attempt ${retry.notice.attempt})`;
    return left > 0;
  }
}
