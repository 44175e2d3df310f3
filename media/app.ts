// The webview application: validates host messages, folds each into the view model as it arrives,
// and redraws only what changed. The host's scheduler is the one throttle on the delta path (it
// merges appends and posts at most once per frame); the browser paints once per frame anyway. It is a view of the host's state: on load it
// restores local UI state (draft, history panel) and asks the host for a snapshot.
import { isLiveRunStatus, parseHostMessage, type HostMessage, type ProtocolLog } from '../src/protocol/index.js';
import { bindActions } from './actions.js';
import { ApprovalFocus } from './approval-focus.js';
import { AttachmentTray } from './attachments.js';
import { Banners } from './banners.js';
import { Composer } from './composer.js';
import { h } from './dom.js';
import { HeaderControls } from './header-controls.js';
import type { Shrink } from './image-input.js';
import { MeterView } from './meter-view.js';
import { warmUpMarkdown } from './markdown/render-markdown.js';
import { reportUpdate } from './perf-hook.js';
import { QueuedMessage } from './queued-message.js';
import { StatusLine } from './status-line.js';
import { RulesLine } from './rules-line.js';
import { TodoPin } from './todo-pin.js';
import { ProcessList } from './process-list.js';
import { TypingGuard } from './typing-guard.js';
import { TaskListView } from './task-list.js';
import { WorktreeSessionsView } from './worktree-sessions.js';
import { type RequestFrame, TranscriptView } from './transcript-view.js';
import type { HostApi } from './vscode-api.js';
import { Changes, ViewModel } from './view-model.js';
import { Welcome } from './welcome.js';

export interface AppOptions {
  host: HostApi;
  root: HTMLElement;
  requestFrame?: RequestFrame;
  /** Wall-clock time, for elapsed times on cards. */
  now?: () => number;
  log?: ProtocolLog;
  /** Whether the webview has the keyboard (false while an editor has it); tests fake it. */
  hasFocus?: () => boolean;
  /** Image downscaling (tests pass their own; the default uses OffscreenCanvas). */
  shrinkImage?: Shrink;
}

/** What survives the view being hidden and re-created (the transcript comes from the host). */
interface SavedState {
  draft?: string;
  historyOpen?: boolean;
}

export class App {
  readonly model: ViewModel;
  readonly transcript: TranscriptView;
  readonly composer: Composer;
  private readonly banners = new Banners();
  private readonly meter = new MeterView();
  private readonly rules = new RulesLine();
  private readonly todos = new TodoPin();
  private readonly processes = new ProcessList();
  private readonly tasks = new TaskListView();
  private readonly worktrees = new WorktreeSessionsView();
  private readonly statusLine = new StatusLine();
  private readonly queued = new QueuedMessage();
  private readonly welcome = new Welcome();
  private readonly approvalFocus = new ApprovalFocus();
  /** The last message posted, until the run it started shows an answer or fails. */
  private lastSent: string | undefined;
  /** A prompt put back in the composer because its run failed before any answer. */
  private restored: string | undefined;
  readonly attachments: AttachmentTray;
  private readonly headerControls: HeaderControls;
  private readonly now: () => number;
  private readonly hasFocus: () => boolean;
  private saved: SavedState;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private warmUpTimer: ReturnType<typeof setTimeout> | undefined;
  /** The task the view shows (a snapshot of another one clears the composer's chips). */
  private shownTaskId: string | undefined;

  constructor(private readonly options: AppOptions) {
    this.now = options.now ?? (() => Date.now());
    this.model = new ViewModel(options.log);
    this.saved = (options.host.getState() as SavedState | undefined) ?? {};
    const requestFrame = options.requestFrame ?? ((cb: () => void) => requestAnimationFrame(() => cb()));
    this.transcript = new TranscriptView(this.model, requestFrame);
    this.attachments = new AttachmentTray((m) => options.host.post(m), options.shrinkImage);
    this.headerControls = new HeaderControls((m) => options.host.post(m));
    this.composer = new Composer(
      (text) => this.sendOrQueue(text),
      (draft) => this.save({ draft }),
    );
    this.attachments.bind(this.composer.input, this.composer.el, (take) => this.composer.keyTakers.push(take));
    this.composer.addTool(this.attachments.pickButton(), 'start');
    // The context meter sits in the composer's toolbar, where the next message's room is decided.
    this.composer.addTool(this.meter.el, 'end');
    // The welcome scrolls with the conversation: an empty task gives it the conversation's room.
    this.transcript.scroller.prepend(this.welcome.el);
    this.hasFocus = options.hasFocus ?? (() => document.hasFocus());
    // Text typed on anything but a text box goes into the composer (approval only by intent).
    new TypingGuard(document, this.composer);
    options.root.replaceChildren(
      h(
        'div',
        { class: 'app' },
        h('div', { class: 'header' }, this.headerControls.el),
        this.rules.el,
        this.tasks.el,
        this.worktrees.el,
        this.banners.el,
        this.transcript.el,
        this.statusLine.el,
        this.queued.el,
        this.meter.details,
        this.todos.el,
        this.processes.el,
        this.attachments.el,
        this.composer.el,
        this.approvalFocus.el,
      ),
    );
    this.tasks.update(this.model.tasks);
    bindActions(options.root, {
      post: (m) => options.host.post(m),
      send: () => this.composer.submit(),
      toggleHistory: () => {
        this.tasks.toggle();
        this.save({ historyOpen: this.tasks.isOpen });
      },
      toggleMeter: () => this.meter.toggle(),
      showEarlier: () => this.transcript.showEarlier(),
      showRejectForm: (id, show) => this.transcript.view(id)?.card?.showRejectForm(show),
      rejectReason: (id) => this.transcript.view(id)?.card?.rejectReason ?? '',
      markDeciding: (id) => this.transcript.view(id)?.el.classList.add('deciding'),
      sendPrompt: (text) => {
        this.sendOrQueue(text);
        // The prompt is on its way: what the user types next is the next message.
        this.composer.focus();
      },
      unqueue: () => this.unqueue(),
      toggleReadGroup: (id) => this.transcript.toggleReadGroup(id),
      jumpToLatest: () => this.transcript.jumpToLatest(),
      bringIntoView: (el) => this.transcript.bringIntoView(el),
      oldestWaiting: () => this.model.pendingIds()[0],
      announce: (text) => this.approvalFocus.announce(text),
    });
    // The view got the keyboard (Focus on Chat View, a click on its tab): it goes to the composer
    // rather than to the top of the page, eleven Tabs away.
    window.addEventListener('focus', () => {
      if (this.focusIsLost()) this.composer.focus();
    });
  }

  /** Restores local state and asks the host for the view. */
  start(): void {
    if (this.saved.draft) this.composer.setDraft(this.saved.draft);
    if (this.saved.historyOpen) this.tasks.toggle(true);
    this.options.host.post({ type: 'webview/ready' });
    this.warmUpTimer = setTimeout(() => {
      this.warmUpTimer = undefined;
      warmUpMarkdown();
    }, 0);
  }

  /** Stops timers (the page is going away, or a test ended). */
  dispose(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    if (this.warmUpTimer !== undefined) clearTimeout(this.warmUpTimer);
    this.ticker = undefined;
    this.saveTimer = undefined;
  }

  /** Every message from the host: validated here, applied at once. */
  receive(raw: unknown): void {
    const message = parseHostMessage(raw, this.options.log);
    if (message?.type === 'composer/attach') {
      this.attachments.add(message.chip);
      // Picked from the `@` menu the box kept the keyboard, the caret after the mention: it stays.
      if (document.activeElement !== this.composer.input) this.composer.focus();
      return;
    }
    if (message?.type === 'composer/mentions') return this.attachments.mentions?.setItems(message.items);
    if (message?.type === 'composer/focus') return this.composer.focus();
    if (message) this.apply(message);
  }

  private apply(message: HostMessage): void {
    const start = performance.now();
    const changes = new Changes();
    const localNow = this.now();
    if (this.model.apply(message, changes, localNow) === 'gap') {
      // A delta was lost: ask for the whole view and ignore deltas until it comes.
      this.options.host.post({ type: 'webview/ready', lastSeq: this.model.seq! });
      this.model.seq = undefined;
    }
    this.render(changes, localNow);
    reportUpdate({
      lastSeq: this.model.seq ?? -1,
      messages: 1,
      start,
      end: performance.now(),
      kind: changes.reset ? 'snapshot' : message.type === 'transcript/delta' ? 'delta' : 'other',
    });
  }

  private render(changes: Changes, localNow: number): void {
    const model = this.model;
    const hadKeyboard = this.hasFocus();
    if (changes.reset && model.taskId !== this.shownTaskId) this.taskChanged();
    this.transcript.apply(changes);
    this.noteWaitingCards(changes);
    this.noteSentMessages(changes);
    if (changes.reset || changes.status) {
      this.composer.setBusy(isLiveRunStatus(model.status));
      if (model.status === 'failed') this.restoreUnanswered();
      this.sendQueued();
    }
    if (changes.reset || changes.hints) {
      this.banners.updateHints(model.hints);
      this.headerControls.update(model.hints);
      this.attachments.setVision(model.hints.model?.vision ?? true);
      this.rules.update(model.hints.rules);
      this.composer.commands.setCommands(model.hints.commands);
      this.processes.update(model.hints.processes);
    }
    // A plan (Plan mode's to-do list) is offered for approval once the run that wrote it ended.
    if (changes.reset || changes.hints || changes.status)
      this.todos.update(model.hints.todos, model.hints.mode === 'plan' && !isLiveRunStatus(model.status), isLiveRunStatus(model.status));
    if (changes.reset || changes.hints || changes.structural.length > 0) this.welcome.update(model.hints, model.count === 0);
    if (changes.reset || changes.meter) this.meter.update(model.meter);
    if (changes.reset || changes.tasks) this.tasks.update(model.tasks);
    if (changes.worktrees) this.worktrees.update(model.worktrees);
    const moved =
      changes.reset ||
      changes.retry ||
      changes.status ||
      changes.hints ||
      changes.activity ||
      changes.intents.size > 0 ||
      changes.textDone.size > 0;
    if (moved || changes.structural.length > 0) this.tick(localNow);
    // What held the keyboard went away (a decided card's buttons, Stop at the end of a run).
    if (hadKeyboard && this.focusIsLost()) this.composer.focus();
  }

  /**
   * Another task is shown: the composer's chips were gathered for the one before, and a prompt
   * put back after that task's run failed belongs to it, not to the next (typed words stay).
   */
  private taskChanged(): void {
    if (this.shownTaskId !== undefined) this.attachments.clear();
    if (this.restored !== undefined && this.composer.input.value === this.restored) {
      this.composer.setDraft('');
      this.save({ draft: '' });
    }
    this.restored = undefined;
    this.shownTaskId = this.model.taskId;
  }

  /** The keyboard is on nothing in particular: the page itself, or a control just hidden. */
  private focusIsLost(): boolean {
    const el = document.activeElement;
    return !el || el === document.body || !el.isConnected || el.closest('[hidden], .deciding') !== null;
  }

  /** The host asks for the keyboard in the composer (New Task, a context pick). */
  focusComposer(): void {
    this.composer.focus();
  }

  /** Elapsed times and the retry countdown; a 1 s timer runs only while something ticks. */
  private tick(localNow = this.now()): void {
    let ticking = this.banners.updateRetry(this.model, localNow);
    if (this.statusLine.update(this.model, localNow)) ticking = true;
    this.transcript.forEachView((view) => {
      view.tick?.(localNow, this.model.hostSkew);
      if (view.card?.running) ticking = true;
    });
    if (ticking && this.ticker === undefined) this.ticker = setInterval(() => this.tick(), 1000);
    if (!ticking && this.ticker !== undefined) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  /** A message goes to the host now, or waits (shown as queued) while a run is busy. */
  private sendOrQueue(text: string): void {
    if (!text.trim()) return;
    if (isLiveRunStatus(this.model.status)) this.queued.add(text);
    else this.post(text);
  }

  /** Posts a message with what the attachment tray holds (chips, images). */
  private post(text: string): void {
    this.lastSent = text;
    const mode = this.headerControls.chosenMode();
    const agent = this.headerControls.chosenAgent();
    this.attachments.withOutgoing((extra) =>
      this.options.host.post({ type: 'task/send', text, ...extra, ...(mode ? { mode } : {}), ...(agent !== undefined ? { agent } : {}) }),
    );
  }

  /**
   * A run that failed before any answer (no key, no network) did not get the prompt through:
   * it goes back into an empty composer, so nothing typed is lost.
   */
  private restoreUnanswered(): void {
    const text = this.lastSent;
    this.lastSent = undefined;
    if (!text || this.composer.input.value.trim() !== '') return;
    for (let i = this.model.count - 1; i >= 0; i--) {
      const item = this.model.itemAt(i)!;
      if (item.kind === 'user') break;
      if (item.kind !== 'notice') return; // something answered
    }
    this.restored = text;
    this.composer.setDraft(text);
    this.save({ draft: text });
  }

  /** A restored prompt that is sent again (Retry, or Send) leaves the composer. */
  private noteSentMessages(changes: Changes): void {
    if (this.restored === undefined) return;
    for (const change of changes.structural) {
      if (change.type !== 'add' || change.item.kind !== 'user' || change.item.text !== this.restored) continue;
      if (this.composer.input.value === this.restored) {
        this.composer.setDraft('');
        this.save({ draft: '' });
      }
      this.restored = undefined;
    }
  }

  /**
   * The run ended: what was queued goes now. A run the user stopped is different — Stop means
   * stop, so the queued text goes back into the composer to be sent (or not) by hand.
   */
  private sendQueued(): void {
    if (isLiveRunStatus(this.model.status)) return;
    if (this.model.status === 'cancelled') return this.unqueue(false);
    const text = this.queued.take();
    if (text) this.post(text);
  }

  /** Cancel on the queued message: it goes back into the composer, ahead of anything typed. */
  private unqueue(focus = true): void {
    const text = this.queued.take();
    if (!text) return;
    const draft = this.composer.input.value.trim();
    this.composer.setDraft(draft ? `${text}\n\n${draft}` : text);
    this.save({ draft: this.composer.input.value });
    if (focus) this.composer.input.focus();
  }

  /** Cards that started (or stopped) waiting: focus or announce them. */
  private noteWaitingCards(changes: Changes): void {
    const ids = changes.reset ? this.model.pendingIds() : [...changes.intents, ...changes.addedIds()];
    for (const id of ids) {
      const card = this.transcript.view(id)?.card;
      if (!card) continue;
      if (card.waiting && this.approvalFocus.isNew(id)) this.transcript.reveal(id);
      this.approvalFocus.note(id, card, card.el.getAttribute('aria-label') ?? id);
    }
  }

  /** Local UI state goes to `setState`, at most every 300 ms. */
  private save(patch: SavedState): void {
    this.saved = { ...this.saved, ...patch };
    if (this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.options.host.setState(this.saved);
    }, 300);
  }
}
