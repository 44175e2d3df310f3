// One delegated click and key handler for the whole view: every control says what it does in
// `data-action`, and this turns it into a host message or a local UI change.
import type { ApprovalScope, WebviewMessage } from '../src/protocol/index.js';
import { closeEditor, editedText, openEditor } from './message-edit.js';
import { checkpointMessage } from './checkpoint-actions.js';
import { type ApprovalKey, approvalKeyOf } from './approval-keys.js';

export interface ActionHandlers {
  post(message: WebviewMessage): void;
  send(): void;
  toggleHistory(): void;
  /** Opens or closes the meter's details (tokens and cost per kind, Fold now). */
  toggleMeter(): void;
  showEarlier(): void;
  showRejectForm(intentId: string, show: boolean): void;
  rejectReason(intentId: string): string;
  /** Hides a card's buttons until the host answers, so a double click cannot decide twice. */
  markDeciding(intentId: string): void;
  /** Sends (or queues) a prompt the view offers, such as the welcome's examples. */
  sendPrompt(text: string): void;
  /** Takes the queued message back into the composer. */
  unqueue(): void;
  /** Opens or closes a line of grouped finished reads. */
  toggleReadGroup(firstId: string): void;
  /** "New messages": scrolls to the bottom and follows again. */
  jumpToLatest(): void;
  /** Scrolls what the reader just opened in the transcript into view (and stops following the bottom). */
  bringIntoView(el: Element): void;
  /** The card an approval key decides: the oldest one waiting (undefined: none). */
  oldestWaiting(): string | undefined;
  /** Says something to screen readers (and nothing on screen). */
  announce(text: string): void;
}

const NOTICE_MESSAGES = new Set(['apiKey/set', 'task/resume', 'log/show']);
const SCOPES = new Set<ApprovalScope>(['once', 'task', 'workspace']);

export function bindActions(root: HTMLElement, handlers: ActionHandlers): void {
  root.addEventListener('click', (event) => onClick(event, handlers));
  root.addEventListener('keydown', (event) => onKey(event, handlers));
}

function onClick(event: MouseEvent, handlers: ActionHandlers): void {
  const target = event.target as Element | null;
  const link = target?.closest('a[href]');
  if (link) {
    // Links never navigate the webview; the host decides whether and how to open them.
    event.preventDefault();
    handlers.post({ type: 'link/open', href: link.getAttribute('href') ?? '' });
    return;
  }
  const el = target?.closest<HTMLElement>('[data-action]');
  if (!el) return;
  if (el.dataset.action === 'focus-intent' && target?.closest('input, button, summary, details, pre, a')) return;
  run(el, handlers);
}

function onKey(event: KeyboardEvent, handlers: ActionHandlers): void {
  const key = approvalKeyOf(event);
  if (key) return decideByKey(event, key, handlers);
  const target = event.target as HTMLElement;
  const intentId = target.dataset.intentId;
  if (target.matches('.reject-input') && intentId) {
    if (event.key === 'Enter') {
      event.preventDefault();
      reject(intentId, handlers);
    } else if (event.key === 'Escape') {
      handlers.showRejectForm(intentId, false);
    }
    return;
  }
  if ((event.key === 'Enter' || event.key === ' ') && target.dataset.action === 'focus-intent' && intentId) {
    event.preventDefault();
    handlers.post({ type: 'intent/focus', intentId });
  }
}

/** Alt+Shift+Y / N / A in the view: the oldest waiting card, as the keybindings do in the diff. */
function decideByKey(event: KeyboardEvent, key: ApprovalKey, handlers: ActionHandlers): void {
  event.preventDefault();
  const intentId = handlers.oldestWaiting();
  if (!intentId) return handlers.announce('Nothing is waiting for approval.');
  handlers.markDeciding(intentId);
  // No reason: the user typed none, and the card must not quote Keel's words as theirs.
  if (key.command === 'keel.rejectPending') return handlers.post({ type: 'intent/reject', intentId });
  handlers.post({ type: 'intent/approve', intentId, scope: key.command === 'keel.approvePendingForTask' ? 'task' : 'once' });
}

function reject(intentId: string, handlers: ActionHandlers): void {
  const reason = handlers.rejectReason(intentId);
  handlers.markDeciding(intentId);
  handlers.post({ type: 'intent/reject', intentId, ...(reason ? { reason } : {}) });
}

function run(el: HTMLElement, handlers: ActionHandlers): void {
  const data = el.dataset;
  const intentId = data.intentId ?? '';
  switch (data.action) {
    case 'send':
      return handlers.send();
    case 'stop':
      return handlers.post({ type: 'task/stop' });
    case 'new-task':
      return handlers.post({ type: 'task/new' });
    case 'history':
      return handlers.toggleHistory();
    case 'open-task':
      handlers.toggleHistory();
      return handlers.post({ type: 'task/open', id: data.taskId ?? '' });
    case 'delete-task':
      return handlers.post({ type: 'task/delete', id: data.taskId ?? '' });
    case 'worktree-act':
      return worktreeAct(data, handlers);
    case 'approve': {
      const scope = (SCOPES.has(data.scope as ApprovalScope) ? data.scope : 'once') as ApprovalScope;
      handlers.markDeciding(intentId);
      return handlers.post({ type: 'intent/approve', intentId, scope });
    }
    case 'reject':
      return handlers.showRejectForm(intentId, true);
    case 'reject-confirm':
      return reject(intentId, handlers);
    case 'reject-cancel':
      return handlers.showRejectForm(intentId, false);
    case 'focus-intent':
      return handlers.post({ type: 'intent/focus', intentId });
    case 'copy-code':
      handlers.post({ type: 'clipboard/copy', text: codeOf(el) });
      return showCopied(el);
    case 'insert-code':
      return handlers.post({ type: 'editor/insert', text: codeOf(el) });
    case 'apply-code':
      return handlers.post({ type: 'editor/apply', text: codeOf(el) });
    case 'notice': {
      const message = data.message ?? '';
      if (NOTICE_MESSAGES.has(message)) handlers.post({ type: message as 'apiKey/set' | 'task/resume' | 'log/show' });
      return;
    }
    case 'welcome-prompt':
      return handlers.sendPrompt(data.prompt ?? '');
    case 'queued-cancel':
      return handlers.unqueue();
    case 'toggle-read-group':
      return handlers.toggleReadGroup(data.group ?? '');
    case 'retry-turn':
      return handlers.post({ type: 'turn/retry' });
    case 'retry': {
      const noticeId = el.closest<HTMLElement>('[data-testid="notice"]')?.dataset.itemId;
      return handlers.post({ type: 'task/retry', ...(noticeId ? { noticeId } : {}) });
    }
    case 'edit-message':
    case 'resend-message':
    case 'cancel-edit':
      return editMessage(el, handlers);
    case 'load-earlier':
      return handlers.showEarlier();
    case 'jump-latest':
      return handlers.jumpToLatest();
    case 'toggle-meter':
      return handlers.toggleMeter();
    case 'fold-context':
      return handlers.post({ type: 'context/fold' });
    case 'approve-plan':
      return handlers.post({ type: 'plan/approve' });
    case 'stop-process':
      return handlers.post({ type: 'process/stop', name: data.name ?? '' });
    case 'open-rules':
      return handlers.post({ type: 'rules/open', path: data.path ?? '' });
    case 'open-file': {
      const line = Number(data.line);
      return handlers.post({ type: 'file/open', path: data.path ?? '', ...(Number.isInteger(line) && line > 0 ? { line } : {}) });
    }
    default: {
      const message = checkpointMessage(el);
      if (!message) return;
      // A choice in a checkpoint's menu closes the menu.
      el.closest('details.checkpoint-menu')?.removeAttribute('open');
      handlers.post(message);
    }
  }
}

/** Edit and resend on a user message or Keel's request (its item id is the message the task forks at). */
function editMessage(el: HTMLElement, handlers: ActionHandlers): void {
  const message = el.closest<HTMLElement>('.item.user');
  const messageId = message?.dataset.itemId;
  if (!message || !messageId) return;
  if (el.dataset.action === 'edit-message') return handlers.bringIntoView(openEditor(message));
  if (el.dataset.action === 'cancel-edit') return closeEditor(message);
  const text = editedText(message);
  if (!text) return;
  closeEditor(message);
  handlers.post({ type: 'task/fork', messageId, text });
}

const codeOf = (el: HTMLElement): string => el.closest('.code-block')?.querySelector('pre code')?.textContent ?? '';

/** The copy button says "Copied" (to screen readers too) for a moment. */
/**
 * Copy's answer: its glyph turns into a tick (a narrow block shows the glyph alone, so the word
 * by itself would go unseen) and its words and label say Copied, for a moment.
 */
function showCopied(el: HTMLElement): void {
  const words = el.querySelector('.code-action-text');
  const glyph = el.querySelector('.codicon');
  if (!words) return;
  words.textContent = 'Copied';
  glyph?.classList.replace('codicon-copy', 'codicon-check');
  el.classList.add('copied');
  el.setAttribute('aria-label', 'Copied');
  setTimeout(() => {
    words.textContent = 'Copy';
    glyph?.classList.replace('codicon-check', 'codicon-copy');
    el.classList.remove('copied');
    el.setAttribute('aria-label', 'Copy code');
  }, 1500);
}

const WORKTREE_ACTIONS = new Set<string>(['review', 'apply', 'discard']);

/** A worktree session's Review, Apply or Discard (the host checks the name against its records). */
function worktreeAct(data: DOMStringMap, handlers: ActionHandlers): void {
  const action = data.act ?? '';
  if (!WORKTREE_ACTIONS.has(action)) return;
  handlers.post({ type: 'worktree/act', name: data.name ?? '', action: action as 'review' | 'apply' | 'discard' });
}
