// The DOM for each transcript item kind. A view is created when its item scrolls into the
// rendered window and then updated in place: text by appends, cards by patches.
import { attachmentChip, imageThumb } from './attachments.js';
import { TestIds, type FoldItem, type KeelPrompt, type NoticeItem, type TranscriptItem } from '../src/protocol/index.js';
import { actionButton, h, icon } from './dom.js';
import { IntentCard } from './intent-card.js';
import { editButton } from './message-edit.js';
import { ChangesView, checkpointView } from './checkpoint-views.js';
import { MarkdownStream } from './markdown/markdown-stream.js';
import { formatTokens } from './meter-view.js';
import { FrameView } from './frame-view.js';

export interface ItemView {
  readonly el: HTMLElement;
  appendText?(text: string): void;
  endText?(): void;
  /** Called once per DOM update for views with pending work (the open markdown block). */
  render?(): void;
  update?(item: TranscriptItem): void;
  tick?(localNow: number, hostSkew: number): void;
  readonly card?: IntentCard;
}

class AssistantView implements ItemView {
  readonly el: HTMLElement;
  private readonly stream = new MarkdownStream();

  constructor(item: Extract<TranscriptItem, { kind: 'assistant' }>) {
    this.el = h(
      'div',
      { class: 'item assistant', attrs: { 'data-testid': TestIds.assistantText, 'data-item-id': item.id } },
      this.stream.el,
    );
    this.stream.append(item.text);
    if (item.done) this.endText();
    this.render();
    this.update(item);
  }

  /** The host marked the text as cut (its stream broke): it stays, with a line saying so. */
  update(item: TranscriptItem): void {
    if (item.kind !== 'assistant' || !item.cut || this.el.dataset.cut === 'true') return;
    this.endText();
    this.render();
    this.el.dataset.cut = 'true';
    this.el.append(cutMark());
  }

  appendText(text: string): void {
    this.stream.append(text);
  }

  endText(): void {
    this.stream.end();
    this.el.setAttribute('data-done', 'true');
  }

  render(): void {
    this.stream.render();
  }
}

/** The end of a text whose stream broke: what came before it is all that arrived. */
function cutMark(): HTMLElement {
  return h(
    'div',
    { class: 'cut-mark', attrs: { role: 'note' } },
    icon('debug-disconnect'),
    ' The stream was cut here; this is what had arrived.',
  );
}

/** Reasoning is plain text, collapsed: appended as text nodes, O(chunk). */
class ReasoningView implements ItemView {
  readonly el: HTMLDetailsElement;
  private readonly body = h('div', { class: 'reasoning-body' });

  constructor(item: Extract<TranscriptItem, { kind: 'reasoning' }>) {
    this.el = h(
      'details',
      { class: 'item reasoning', attrs: { 'data-testid': TestIds.reasoning, 'data-item-id': item.id } },
      h('summary', {}, icon('lightbulb'), ' Reasoning'),
      this.body,
    );
    this.appendText(item.text);
    this.update(item);
  }

  appendText(text: string): void {
    this.body.append(text);
  }

  update(item: TranscriptItem): void {
    if (item.kind !== 'reasoning' || !item.cut || this.el.dataset.cut === 'true') return;
    this.el.dataset.cut = 'true';
    this.body.append(cutMark());
  }
}

/** What a request Keel wrote for the user is called in the transcript (its text is one click away). */
const KEEL_PROMPT_LABELS: Record<KeelPrompt, string> = {
  fix_tests: 'Keel: Fix the Failing Tests',
  plan_approved: 'Plan approved — carrying it out',
};

function userView(item: Extract<TranscriptItem, { kind: 'user' }>): ItemView {
  if (item.keel) return keelPromptView(item, item.keel);
  return {
    el: h(
      'div',
      { class: 'item user', attrs: { 'data-testid': TestIds.userMessage, 'data-item-id': item.id } },
      editButton(),
      h('div', { class: 'user-text', text: item.text }),
      item.attachments?.length || item.images?.length
        ? h(
            'div',
            { class: 'attachment-chips', attrs: { role: 'list', 'aria-label': 'Attached context' } },
            ...(item.attachments ?? []).map((chip) => attachmentChip(chip)),
            ...(item.images ?? []).map((image, i) => imageThumb(image, i)),
          )
        : null,
    ),
  };
}

/**
 * Keel's own request: a compact line, the words it sent the model inside (not the user's
 * message). It can still be edited and resent, as the user's own words would be: the request
 * was theirs to make ("Fix the failing tests", then "only the discount test, please").
 */
function keelPromptView(item: Extract<TranscriptItem, { kind: 'user' }>, prompt: KeelPrompt): ItemView {
  return {
    el: h(
      'div',
      { class: 'item user keel-prompt-item', attrs: { 'data-item-id': item.id } },
      editButton(),
      h(
        'details',
        { class: 'keel-prompt', attrs: { 'data-testid': TestIds.keelPrompt } },
        h('summary', { class: 'keel-prompt-label', text: KEEL_PROMPT_LABELS[prompt] }),
        h('div', { class: 'user-text', text: item.text }),
      ),
    ),
  };
}

/** A notice; redrawn in place when the host replaces it (an older failure loses its Retry). */
class NoticeView implements ItemView {
  readonly el: HTMLElement;

  constructor(item: NoticeItem) {
    this.el = h('div', { attrs: { 'data-testid': TestIds.notice, 'data-item-id': item.id } });
    this.draw(item);
  }

  update(item: TranscriptItem): void {
    if (item.kind === 'notice') this.draw(item);
  }

  private draw(item: NoticeItem): void {
    const glyph = item.level === 'error' ? 'error' : item.level === 'warning' ? 'warning' : 'info';
    const action = item.action
      ? actionButton('notice', item.action.label, {
          text: item.action.label,
          testId: TestIds.noticeAction,
          data: { message: item.action.message },
        })
      : null;
    this.el.className = `item notice level-${item.level}`;
    this.el.setAttribute('role', item.level === 'error' ? 'alert' : 'status');
    this.el.setAttribute('data-level', item.level);
    this.el.replaceChildren(
      icon(glyph),
      h('span', { class: 'notice-text', text: item.text }),
      ...(item.retry ? [actionButton('retry', 'Retry: send the failed message again', { text: 'Retry', testId: TestIds.retry })] : []),
      ...(action ? [action] : []),
    );
  }
}

/** Folded steps: collapsed, "Folded N steps", the note as plain text (it came from the model). */
function foldView(item: FoldItem): ItemView {
  const steps = item.lastStep - item.firstStep + 1;
  const range = steps === 1 ? `step ${item.firstStep}` : `steps ${item.firstStep}–${item.lastStep}`;
  const tokens = `${formatTokens(item.tokensBefore)} → ${formatTokens(item.tokensAfter)} tokens`;
  const by = item.source === 'model' ? 'note by the model' : 'note by Keel';
  return {
    el: h(
      'details',
      {
        class: 'item fold',
        attrs: { 'data-testid': TestIds.foldItem, 'data-item-id': item.id, 'data-source': item.source },
      },
      h(
        'summary',
        {},
        icon('fold'),
        ` Folded ${steps} step${steps === 1 ? '' : 's'} `,
        h('span', { class: 'fold-meta', text: `(${range}; ${tokens}; ${by}${item.requested ? '; asked for' : ''})` }),
      ),
      h('div', { class: 'fold-note', text: item.note }),
    ),
  };
}

class IntentView implements ItemView {
  readonly card: IntentCard;
  readonly el: HTMLElement;

  constructor(item: Extract<TranscriptItem, { kind: 'intent' }>) {
    this.card = new IntentCard(item);
    this.el = this.card.el;
  }

  update(item: TranscriptItem): void {
    if (item.kind === 'intent') this.card.update(item);
  }

  tick(localNow: number, hostSkew: number): void {
    this.card.tick(localNow, hostSkew);
  }
}

export function createItemView(item: TranscriptItem): ItemView {
  switch (item.kind) {
    case 'user':
      return userView(item);
    case 'assistant':
      return new AssistantView(item);
    case 'reasoning':
      return new ReasoningView(item);
    case 'intent':
      return new IntentView(item);
    case 'notice':
      return new NoticeView(item);
    case 'fold':
      return foldView(item);
    case 'frame':
      return new FrameView(item);
    case 'checkpoint':
      return checkpointView(item);
    case 'changes':
      return new ChangesView(item);
  }
}
