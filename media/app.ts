// The webview application: validates host messages, folds them into the view model once per
// animation frame, and redraws only what changed. It is a view of the host's state: on load it
// restores local UI state (draft, history panel) and asks the host for a snapshot.
import { isLiveRunStatus, parseHostMessage, type HostMessage, type ProtocolLog } from '../src/protocol/index.js';
import { bindActions } from './actions.js';
import { AttachmentTray } from './attachments.js';
import { Banners } from './banners.js';
import { Composer } from './composer.js';
import { h } from './dom.js';
import { FrameBatcher, type RequestFrame } from './frame-batcher.js';
import { HeaderControls } from './header-controls.js';
import type { Shrink } from './image-input.js';
import { MeterView } from './meter-view.js';
import { warmUpMarkdown } from './markdown/render-markdown.js';
import { reportUpdate } from './perf-hook.js';
import { RulesLine } from './rules-line.js';
import { header, TaskListView } from './task-list.js';
import { TranscriptView } from './transcript-view.js';
import type { HostApi } from './vscode-api.js';
import { Changes, ViewModel } from './view-model.js';

export interface AppOptions {
  host: HostApi;
  root: HTMLElement;
  requestFrame?: RequestFrame;
  /** The clock frames run on (performance.now); tests that fake frames fake it too. */
  frameTime?: () => number;
  /** Wall-clock time, for elapsed times on cards. */
  now?: () => number;
  log?: ProtocolLog;
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
  private readonly tasks = new TaskListView();
  readonly attachments: AttachmentTray;
  private readonly headerControls: HeaderControls;
  private readonly batcher: FrameBatcher<HostMessage>;
  private readonly now: () => number;
  private saved: SavedState;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private warmUpTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: AppOptions) {
    this.now = options.now ?? (() => Date.now());
    this.model = new ViewModel(options.log);
    this.saved = (options.host.getState() as SavedState | undefined) ?? {};
    const requestFrame = options.requestFrame ?? ((cb: () => void) => requestAnimationFrame(() => cb()));
    this.batcher = new FrameBatcher((batch) => this.applyBatch(batch), requestFrame, options.frameTime);
    this.transcript = new TranscriptView(this.model, requestFrame);
    this.attachments = new AttachmentTray((m) => options.host.post(m), options.shrinkImage);
    this.headerControls = new HeaderControls((m) => options.host.post(m));
    this.composer = new Composer(
      (text) => this.attachments.withOutgoing((extra) => options.host.post({ type: 'task/send', text, ...extra })),
      (draft) => this.save({ draft }),
    );
    this.attachments.bind(this.composer.input, this.composer.el);
    this.composer.el.prepend(this.attachments.pickButton());
    options.root.replaceChildren(
      h(
        'div',
        { class: 'app' },
        header(this.meter.el),
        this.headerControls.el,
        this.rules.el,
        this.meter.details,
        this.tasks.el,
        this.banners.el,
        this.transcript.el,
        this.attachments.el,
        this.composer.el,
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

  /** Every message from the host: validated here, applied on the next frame. */
  receive(raw: unknown): void {
    const message = parseHostMessage(raw, this.options.log);
    if (message?.type === 'composer/attach') return this.attachments.add(message.chip);
    if (message) this.batcher.push(message);
  }

  private applyBatch(batch: HostMessage[]): void {
    const start = performance.now();
    const changes = new Changes();
    const localNow = this.now();
    // Only the last snapshot in a batch matters; what came before it is superseded.
    let from = 0;
    batch.forEach((m, i) => {
      if (m.type === 'session/snapshot') from = i;
    });
    for (const message of batch.slice(from)) {
      const result = this.model.apply(message, changes, localNow);
      if (result === 'gap') {
        // A delta was lost: ask for the whole view and ignore deltas until it comes.
        this.options.host.post({ type: 'webview/ready', lastSeq: this.model.seq! });
        this.model.seq = undefined;
      }
    }
    this.render(changes, localNow);
    const last = batch[batch.length - 1]!;
    reportUpdate({
      lastSeq: this.model.seq ?? -1,
      messages: batch.length,
      start,
      end: performance.now(),
      kind: changes.reset ? 'snapshot' : last.type === 'transcript/delta' ? 'delta' : 'other',
    });
  }

  private render(changes: Changes, localNow: number): void {
    const model = this.model;
    this.transcript.apply(changes);
    if (changes.reset || changes.status) this.composer.setBusy(isLiveRunStatus(model.status));
    if (changes.reset || changes.hints) {
      this.banners.updateHints(model.hints);
      this.headerControls.update(model.hints);
      this.attachments.setVision(model.hints.model?.vision ?? true);
      this.rules.update(model.hints.rules);
    }
    if (changes.reset || changes.meter) this.meter.update(model.meter);
    if (changes.reset || changes.tasks) this.tasks.update(model.tasks);
    if (changes.reset || changes.retry || changes.intents.size > 0) this.tick(localNow);
  }

  /** Elapsed times and the retry countdown; a 1 s timer runs only while something ticks. */
  private tick(localNow = this.now()): void {
    let ticking = this.banners.updateRetry(this.model, localNow);
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
