// A proposed tool call: what it would do, in a person's words ("Run the tests", the tool's name in
// the tooltip), its status, Approve / Reject while it waits, live output while it runs, and the
// result (expandable) when it is done. A command is shown whole (wrapped, scrollable when long),
// with the hidden characters the host made visible (⟨U+202E⟩, ␛) and a warning when there were
// any; a file change shows its file. States read as what happened: a call stopped while it waited
// is "Cancelled", a rejection "Rejected" and a call the mode or agent does not allow "Not run"
// ("Not run in Plan mode"), all neutral (not red "Failed"); tests that ran and failed get a
// failure mark, not ✓.
import { perIntentTestId, TestIds, type IntentItem } from '../src/protocol/index.js';
import { approvalKeysTitle } from './approval-keys.js';
import { toolTitle } from './tool-titles.js';
import { actionButton, h, icon, setHidden } from './dom.js';

const RISK_ICON: Record<IntentItem['risk'], string> = {
  read: 'eye',
  write: 'edit',
  execute: 'terminal',
  network: 'globe',
};

/** What each risk class means, in words: shown while the call waits, and to screen readers. */
const RISK_TEXT: Record<IntentItem['risk'], string> = {
  read: 'Reads the workspace',
  write: 'Changes files',
  execute: 'Runs a command',
  network: 'Uses the network',
};

/**
 * What a card shows as its state: the kernel's status, with a stop and a call the mode, agent or
 * skill did not allow told apart from a failure.
 */
type Shown = IntentItem['status'] | 'cancelled' | 'not_run';

const STATUS_LABEL: Record<Shown, string> = {
  proposed: 'Proposed',
  awaiting_approval: 'Needs approval',
  approved: 'Approved',
  rejected: 'Rejected',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  not_run: 'Not run',
};

function shownStatus(item: IntentItem): Shown {
  if (item.status !== 'failed') return item.status;
  if (item.result?.notRun) return 'not_run';
  return item.result?.code === 'cancelled' ? 'cancelled' : item.status;
}

export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

/**
 * One button inside a wrapper carrying the per-intent test id (an element has one test id).
 * The wrapper carries the button's action too, so a click on either does the same thing.
 */
function withIdWrapper(base: string, intentId: string, button: HTMLButtonElement): HTMLSpanElement {
  const wrap = h('span', { class: 'testid-wrap', attrs: { 'data-testid': perIntentTestId(base, intentId) } }, button);
  for (const name of ['data-action', 'data-intent-id', 'data-scope']) {
    const value = button.getAttribute(name);
    if (value !== null) wrap.setAttribute(name, value);
  }
  return wrap;
}

export class IntentCard {
  readonly el: HTMLElement;
  private readonly statusEl = h('span', { class: 'intent-status' });
  private readonly elapsedEl = h('span', { class: 'intent-elapsed' });
  private readonly reasonEl = h('div', { class: 'intent-reason' });
  private readonly commandEl = h('pre', {
    class: 'intent-command',
    attrs: { 'data-testid': TestIds.intentCommand, 'aria-label': 'Command line' },
  });
  private readonly summaryEl = h('div', { class: 'intent-summary', attrs: { 'data-testid': TestIds.intentSummary } });
  private readonly hiddenEl = h('div', {
    class: 'intent-hidden-chars',
    attrs: { 'data-testid': TestIds.hiddenChars, role: 'note' },
    text: 'Contains invisible, reordering or control characters, shown here as ⟨U+…⟩ or as control pictures (␛, ␊).',
  });
  private readonly actionsEl: HTMLElement;
  private readonly rejectForm: HTMLElement;
  private readonly rejectInput: HTMLInputElement;
  /** The card's Reject: hidden while its form is open, whose own Reject confirms (one Reject at a time). */
  private readonly rejectOpen: HTMLElement;
  private readonly progressEl = h('pre', { class: 'intent-progress', attrs: { 'aria-label': 'Live output' } });
  private readonly resultEl = h('details', { class: 'intent-result' });
  private renderedStatus: string | undefined;

  constructor(private item: IntentItem) {
    const id = item.id;
    const data = { 'intent-id': id };
    this.rejectInput = h('input', {
      class: 'reject-input',
      attrs: {
        type: 'text',
        placeholder: 'Reason (optional)',
        'aria-label': 'Reason for rejecting',
        'data-testid': TestIds.rejectReason,
        'data-intent-id': id,
      },
    });
    this.rejectForm = h(
      'div',
      { class: 'reject-form' },
      this.rejectInput,
      actionButton('reject-confirm', 'Confirm reject', { text: 'Reject', testId: TestIds.rejectConfirm, data }),
      actionButton('reject-cancel', 'Cancel reject', { text: 'Cancel', class: 'button secondary', data }),
    );
    const forSite = item.grantOrigin ? ` on ${item.grantOrigin}` : '';
    const approve = actionButton('approve', `Approve: ${toolTitle(item.tool)}`, {
      text: 'Approve',
      testId: TestIds.approve,
      data: { ...data, scope: 'once' },
    });
    this.rejectOpen = withIdWrapper(
      TestIds.reject,
      id,
      actionButton('reject', `Reject: ${toolTitle(item.tool)}`, {
        text: 'Reject',
        class: 'button secondary',
        testId: TestIds.reject,
        data,
      }),
    );
    this.actionsEl = h(
      'div',
      { class: 'intent-actions' },
      withIdWrapper(TestIds.approve, id, approve),
      this.rejectOpen,
      h(
        'span',
        { class: 'intent-always' },
        item.grantOrigin ? `Always for ${item.grantOrigin}: ` : 'Always: ',
        actionButton('approve', `Always allow ${toolTitle(item.tool)}${forSite} for this task`, {
          text: 'this task',
          class: 'button link',
          testId: TestIds.approveTask,
          data: { ...data, scope: 'task' },
        }),
        ' · ',
        actionButton('approve', `Always allow ${toolTitle(item.tool)}${forSite} in this workspace`, {
          text: 'this workspace',
          class: 'button link',
          testId: TestIds.approveWorkspace,
          data: { ...data, scope: 'workspace' },
        }),
      ),
      this.rejectForm,
    );
    this.rejectForm.hidden = true;
    this.el = h(
      'div',
      {
        class: `item intent-card risk-${item.risk}`,
        attrs: {
          role: 'group',
          tabindex: '0',
          'data-testid': TestIds.intentCard,
          'data-intent-id': id,
          'data-tool': item.tool,
          'data-action': 'focus-intent',
        },
      },
      h(
        'div',
        { class: 'intent-head', attrs: { title: `Tool: ${item.tool}` } },
        riskIcon(item.risk),
        h('span', { class: 'intent-tool', text: toolTitle(item.tool) }),
        h('span', { class: 'intent-state' }, this.statusEl, this.elapsedEl),
      ),
      this.summaryEl,
      this.commandEl,
      this.hiddenEl,
      this.reasonEl,
      this.actionsEl,
      this.progressEl,
      this.resultEl,
    );
    this.update(item);
  }

  update(item: IntentItem): void {
    this.item = item;
    const el = this.el;
    const shown = shownStatus(item);
    el.setAttribute('data-intent-status', item.status);
    el.setAttribute('data-shown-status', shown);
    if (item.result?.read) el.setAttribute('data-read', item.result.read);
    else el.removeAttribute('data-read');
    el.setAttribute(
      'aria-label',
      `${toolTitle(item.tool)}: ${item.command ?? item.summary} (${RISK_TEXT[item.risk].toLowerCase()}) — ${STATUS_LABEL[shown]}`,
    );
    if (this.renderedStatus !== shown) this.renderStatus(item, shown);
    const waiting = item.status === 'awaiting_approval';
    el.title = waiting ? approvalKeysTitle() : '';
    this.renderJudged(item);
    setHidden(this.actionsEl, !waiting);
    // The policy's reason already says what the call does ("Changes src/a.ts."); the risk's words
    // stand in only when there is none (the icon and the card's label carry the risk either way).
    this.reasonEl.textContent = waiting
      ? (item.approvalReason ?? `${RISK_TEXT[item.risk]}.`)
      : item.rejectReason
        ? `Your reason: ${item.rejectReason}`
        : '';
    setHidden(this.reasonEl, !this.reasonEl.textContent);
    this.renderProgress(item);
    this.renderResult(item);
    if (item.elapsedMs !== undefined) this.elapsedEl.textContent = formatElapsed(item.elapsedMs);
  }

  /** Ticks the elapsed time of a running call (host clock = local clock + skew). */
  tick(localNow: number, hostSkew: number): void {
    const { item } = this;
    if (item.elapsedMs !== undefined) this.elapsedEl.textContent = formatElapsed(item.elapsedMs);
    else if (item.status === 'running' && item.startedAt !== undefined) {
      this.elapsedEl.textContent = formatElapsed(localNow + hostSkew - item.startedAt);
    }
  }

  get running(): boolean {
    return this.item.status === 'running';
  }

  get waiting(): boolean {
    return this.item.status === 'awaiting_approval';
  }

  showRejectForm(show: boolean): void {
    const formHadFocus = this.rejectForm.contains(document.activeElement);
    setHidden(this.rejectForm, !show);
    setHidden(this.rejectOpen, show);
    if (show) this.rejectInput.focus();
    // Cancel: the keyboard goes back to the Reject that opened the form.
    else if (formHadFocus) this.rejectOpen.querySelector('button')?.focus();
  }

  get rejectReason(): string {
    return this.rejectInput.value.trim();
  }

  private renderStatus(item: IntentItem, shown: Shown): void {
    this.renderedStatus = shown;
    const spinner = item.status === 'running' ? icon('loading', 'codicon-modifier-spin') : null;
    this.statusEl.replaceChildren(...(spinner ? [spinner] : []), STATUS_LABEL[shown]);
    this.statusEl.className = `intent-status status-${shown}`;
    if (item.status !== 'awaiting_approval') this.rejectForm.hidden = true;
  }

  /**
   * What is judged, whole: the command line; else, for a file change, its file(s); else the
   * call's summary. And the hidden-characters warning.
   */
  private renderJudged(item: IntentItem): void {
    const command = item.command ?? '';
    if (this.commandEl.textContent !== command) this.commandEl.textContent = command;
    setHidden(this.commandEl, !command);
    const files = item.toolKind === 'edit' ? (item.paths ?? []).filter((p) => p !== '.') : [];
    const subject = command ? '' : files.length ? files.join('\n') : item.summary;
    if (this.summaryEl.textContent !== subject) this.summaryEl.textContent = subject;
    setHidden(this.summaryEl, !subject);
    setHidden(this.hiddenEl, !item.hiddenChars);
  }

  private renderProgress(item: IntentItem): void {
    const tail = item.status === 'running' || !item.result ? (item.progressTail ?? '') : '';
    if (this.progressEl.textContent !== tail) this.progressEl.textContent = tail;
    setHidden(this.progressEl, !tail);
  }

  /** The result, once: ✓ when it went well, a failure mark when it failed or what it checked did; none for a rejection or a stop (the status says it). */
  private renderResult(item: IntentItem): void {
    const result = item.status === 'rejected' || resultCode(item) === 'cancelled' ? undefined : item.result;
    setHidden(this.resultEl, !result);
    if (!result || this.resultEl.dataset.rendered === '1') return;
    this.resultEl.dataset.rendered = '1';
    const look = result.notRun ? RESULT_LOOK.notRun : result.ok && !result.failing ? RESULT_LOOK.good : RESULT_LOOK.bad;
    const summary = h('summary', { class: look.class }, icon(look.icon), ` ${result.summary}`);
    const detail = result.detail ? h('pre', { class: 'intent-detail', text: result.detail }) : null;
    this.resultEl.replaceChildren(summary, ...(detail ? [detail] : []));
  }
}

const resultCode = (item: IntentItem): string | undefined => item.result?.code;

/** A result's mark: ✓ for a call that went well, a failure mark in the error colour, and a neutral one for a call not run by choice. */
const RESULT_LOOK = {
  good: { class: 'ok', icon: 'check' },
  bad: { class: 'error', icon: 'error' },
  notRun: { class: 'not-run', icon: 'circle-slash' },
} as const;

function riskIcon(risk: IntentItem['risk']): HTMLSpanElement {
  const el = icon(RISK_ICON[risk]);
  el.title = RISK_TEXT[risk];
  return el;
}
