// The runtime facade: what the CLI and the extension drive. It owns the log, the state
// folded from it, the abort signal and the approval hand-off; the loop does the rest.
import { isLiveStatus, type ConversationState } from './contracts/state.js';
import { optionsVisibility } from './skill-gate.js';
import type { RuntimeOptions, UserInput } from './runtime-options.js';
import type { ModelRequest } from './contracts/model.js';
import type { ApprovalScope, RuntimeEvent, RuntimeEventInput } from './contracts/events.js';
import type { FoldOutcome, RuntimeFacade, RuntimeOutput } from './contracts/runtime.js';
import type { ToolDefinition } from './contracts/tool.js';
import { capAttachments } from './attachments.js';
import { EventLog } from './event-log.js';
import { applyEvent, replay } from './reducer.js';
import { grantCovers, grantFor } from './grants.js';
import { askPolicy, closeOpenIntents, runLoop, sandboxOf } from './loop.js';
import type { LoopHost } from './loop-host.js';
import { foldHost, projectFor } from './infer.js';
import { foldSteps, planFoldNow } from './fold.js';
import { OutputQueue } from './output-queue.js';
import { defaultPolicy } from './policy.js';
import { messageOf } from './text.js';
import { redactEvent } from './redact.js';
import { closeInterruptedFrames, frameRunner, type FrameEnv } from './frames.js';
import { findIntent, openIntentIds, pendingEverywhere, taskGrants } from './state-queries.js';
import { restoreFiles, type RestoreOutcome, type RestoreRequest } from './checkpoint-restore.js';
import { RuntimeSystem } from './runtime-system.js';
import { AgentModels } from './agent-model.js';
import { logMessage } from './send-message.js';
import { ApprovalWaits, rejectionReason, type Decision } from './approval-waits.js';
import { TaskHooks } from './hooks.js';
import { StreamWatcher } from './stream-watch.js';
import { DEFAULT_MAX_TURNS, SUBAGENT_DEFAULTS } from './limits.js';

/** Starts a run: logs its opening events, returns the open calls to act on first (undefined: nothing runs). */
type Begin = (signal: AbortSignal) => Promise<string[] | undefined>;

export class Runtime implements RuntimeFacade {
  private readonly log: EventLog;
  private state: ConversationState;
  private readonly listeners = new Set<(out: RuntimeOutput) => void>();
  private readonly waits = new ApprovalWaits();
  private readonly systemPrompt: RuntimeSystem;
  private controller: AbortController | undefined;
  /** The running loop's host: what the loop asks the policy with, asked again by approveCovered. */
  private host: LoopHost | undefined;
  private current: Promise<void> = Promise.resolve();
  private queue: OutputQueue<RuntimeOutput> | undefined;
  private runId = '';
  private readonly newId: () => string;
  private foldRequested = false;
  /** The provider of each model the task's custom agent may name (the task's own without one). */
  private readonly models: AgentModels;
  private readonly hooks: TaskHooks | undefined;
  private readonly streamWatch: StreamWatcher;

  constructor(private readonly options: RuntimeOptions) {
    this.models = new AgentModels(options.provider);
    const events = options.events ?? [];
    this.state = replay(events);
    this.runId = this.state.runId ?? '';
    this.newId = options.newId ?? (() => globalThis.crypto.randomUUID());
    this.log = new EventLog(options.store, events, options.now);
    this.log.subscribe((event) => this.onEvent(event));
    this.systemPrompt = new RuntimeSystem(options.system);
    this.hooks = options.hooks ? new TaskHooks(options.hooks) : undefined;
    this.streamWatch = StreamWatcher.from(options);
  }

  /** True while a run is in progress in this runtime (false for a run interrupted by a reload). */
  get running(): boolean {
    return this.controller !== undefined;
  }

  /** A run that stopped without ending (a reload, a crash) and can be resumed. */
  get interrupted(): boolean {
    return !this.running && isLiveStatus(this.state.status);
  }

  send(input: UserInput): AsyncIterable<RuntimeOutput> {
    return this.startRun(this.beginSend(input), true).outputs!;
  }

  /** Like send(), for a host that listens through subscribe(): nothing is queued; resolves when the run ends. */
  run(input: UserInput): Promise<void> {
    return this.startRun(this.beginSend(input), false).done;
  }

  private beginSend(input: UserInput): Begin {
    const { text, images, attachments, mode, agent } = typeof input === 'string' ? { text: input } : input;
    // Validated and capped before anything is logged: a bad attachment loses nothing.
    const capped = attachments?.length ? capAttachments(attachments) : undefined;
    this.assertIdle();
    if (this.interrupted) {
      // The interrupted run ends here, its open calls answered, before the new message.
      closeInterruptedFrames(
        () => this.state,
        (e, frame) => this.emitIn(e, frame),
      );
      closeOpenIntents(this.hostFor(new AbortController().signal, this.systemPrompt.known()), 'Not run: the task was interrupted.');
      this.emit({ type: 'run_cancelled' });
    }
    this.runId = this.newId();
    const env = { state: () => this.state, emit: (e: RuntimeEventInput) => this.emit(e), hooks: this.hooks, models: this.models };
    return async (signal) => ((await logMessage(env, { text, images, attachments: capped, mode, agent }, signal)) ? [] : undefined);
  }

  resume(): AsyncIterable<RuntimeOutput> {
    this.assertIdle();
    if (!this.interrupted) {
      const nothing = new OutputQueue<RuntimeOutput>();
      nothing.close();
      return nothing;
    }
    return this.startRun(this.beginResume(), true).outputs!;
  }

  /** Like resume(), for a host that listens through subscribe(): nothing is queued; resolves when the run ends. */
  resumeRun(): Promise<void> {
    this.assertIdle();
    if (!this.interrupted) return Promise.resolve();
    return this.startRun(this.beginResume(), false).done;
  }

  private beginResume(): Begin {
    this.runId = this.state.runId ?? this.newId();
    return async () => {
      this.emit({ type: 'run_resumed' });
      closeInterruptedFrames(
        () => this.state,
        (e, frame) => this.emitIn(e, frame),
      );
      if (this.state.draft) {
        const error = { kind: 'network' as const, message: 'Keel was interrupted mid-turn; the turn streams again.', retryable: true };
        this.emit({ type: 'turn_retry', attempt: 0, delayMs: 0, error });
      }
      return openIntentIds(this.state);
    };
  }

  approve(intentId: string, scope: ApprovalScope = 'once'): boolean {
    const found = findIntent(this.state, intentId);
    const intent = found?.intent;
    if (!this.running || intent?.status !== 'awaiting_approval') return false;
    const sandbox = intent.sandbox === undefined ? {} : { sandbox: intent.sandbox };
    this.emitIn({ type: 'intent_approved', intentId, scope, auto: false, ...sandbox }, found?.frame);
    if (scope === 'workspace') void this.options.grantStore?.add(grantFor(intent, 'workspace'));
    if (scope !== 'once') void this.approveCovered(grantFor(intent, scope));
    this.waits.wake(intentId);
    return true;
  }

  reject(intentId: string, reason = '', options: { unanswered?: boolean } = {}): boolean {
    const found = findIntent(this.state, intentId);
    if (!this.running || found?.intent.status !== 'awaiting_approval') return false;
    this.emitIn({ type: 'intent_rejected', intentId, reason, ...(options.unanswered ? { unanswered: true } : {}) }, found.frame);
    this.waits.wake(intentId);
    return true;
  }

  cancel(): void {
    if (this.controller) this.cancelRun(this.controller);
  }

  retryStalledTurn(): boolean {
    return this.running && this.streamWatch.restart();
  }

  /**
   * The user asked to fold the context. During a run the fold happens before the next model
   * turn; otherwise it happens now (the note request can be cancelled like a run).
   */
  async fold(): Promise<FoldOutcome> {
    if (this.running) {
      this.foldRequested = true;
      return 'queued';
    }
    const controller = new AbortController();
    this.controller = controller;
    const work = (async (): Promise<FoldOutcome> => {
      try {
        await this.prepareProvider(controller.signal);
        const host = this.hostFor(controller.signal, await this.system());
        const folding = foldHost(host);
        const plan = planFoldNow(folding, true);
        if (!plan) return 'nothing';
        return (await foldSteps(folding, plan)) ? 'folded' : 'nothing';
      } finally {
        this.controller = undefined;
        await this.log.flush().catch(() => undefined);
      }
    })();
    this.current = work.then(() => undefined);
    return work;
  }

  /**
   * Puts the workspace's files back as they were right after event `afterSeq` (checkpoints
   * only; the conversation is left as it is). Refused during a run: a run's writes and a
   * restore must not interleave.
   */
  async restoreFiles(request: RestoreRequest): Promise<RestoreOutcome> {
    const store = this.options.checkpoints;
    if (!store) throw new Error('This task keeps no checkpoints, so there is nothing to restore.');
    this.assertIdle();
    return restoreFiles(
      { store, checkpoints: this.state.checkpoints, step: this.state.turn, emit: (e) => this.emit(e) },
      {
        afterSeq: request.afterSeq,
        // The user may start a run while the question is open: the restore then does not happen.
        confirmOverwrite: async (paths) => (await request.confirmOverwrite(paths)) && !this.running,
      },
    ).finally(() => this.log.flush().catch(() => undefined));
  }

  /** The request the next model turn would be sent now (before any fold it may trigger). */
  preview(): ModelRequest {
    return projectFor(this.hostFor(new AbortController().signal, this.systemPrompt.known()), this.state);
  }

  /** Resolves when the current run (if any) has ended and its events are durable. */
  idle(): Promise<void> {
    return this.current;
  }

  private cancelRun(controller: AbortController): void {
    controller.abort();
    this.waits.wakeAll();
  }

  /** The definition of a tool this runtime offers (hosts ask what a call's tool is: its kind, its preview). */
  tool(name: string): ToolDefinition | undefined {
    return this.options.registry.tool(name);
  }

  getState(): ConversationState {
    return this.state;
  }

  getEvents(): readonly RuntimeEvent[] {
    return this.log.snapshot();
  }

  subscribe(listener: (out: RuntimeOutput) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when everything logged so far is durable in the store. */
  flush(): Promise<void> {
    return this.log.flush();
  }

  private assertIdle(): void {
    if (this.running) throw new Error('A run is already in progress: stop it or wait for it to finish.');
  }

  /** `queued`: the outputs are also kept for a `for await` consumer (one that stops iterating stops the run). */
  private startRun(begin: Begin, queued: boolean): { outputs: OutputQueue<RuntimeOutput> | undefined; done: Promise<void> } {
    const controller = new AbortController();
    this.controller = controller;
    const queue = queued ? new OutputQueue<RuntimeOutput>(() => this.cancelRun(controller)) : undefined;
    this.queue = queue;
    const run = async () => {
      try {
        const ids = await begin(controller.signal);
        if (ids === undefined) return;
        await this.prepareProvider(controller.signal);
        const host = this.hostFor(controller.signal, await this.system());
        this.host = host;
        await runLoop(host, ids);
        // However the run ended (a cancelled run's signal would stop the hooks at once).
        await this.hooks?.notify({ signal: new AbortController().signal, emit: (e) => this.emit(e) }, 'TaskEnd');
      } catch (err) {
        this.emit({ type: 'run_failed', error: { kind: 'internal', message: `Keel hit an internal error: ${messageOf(err)}` } });
      } finally {
        this.controller = undefined;
        this.host = undefined;
        this.queue = undefined;
        await this.log.flush().catch(() => undefined);
        queue?.close();
      }
    };
    this.current = run();
    return { outputs: queue, done: this.current };
  }

  /** The system prompt of this runtime, built on first use and then fixed. */
  private system(): Promise<string> {
    return this.systemPrompt.get(
      () => this.state,
      (paths) => this.emit({ type: 'rules_used', paths }),
    );
  }

  /** The run's provider learns what it can before the run's budget is set (a local server's window). */
  private async prepareProvider(signal: AbortSignal): Promise<void> {
    await this.models
      .for(this.state.agent)
      .provider.prepare?.(signal)
      .catch(() => undefined);
  }

  private hostFor(signal: AbortSignal, system: string): LoopHost {
    const o = this.options;
    const provider = this.models.for(this.state.agent).provider;
    const host: LoopHost = {
      provider,
      registry: o.registry,
      workspace: o.workspace,
      policy: o.policy ?? defaultPolicy,
      grantStore: o.grantStore,
      checkpoints: o.checkpoints,
      visibility: optionsVisibility(o, () => this.state),
      memory: o.memory,
      previews: o.previews,
      secrets: o.secretDetector,
      system,
      budgetTokens: o.contextBudgetTokens ?? provider.capabilities.contextWindow - provider.capabilities.maxOutputTokens,
      maxTurns: o.maxTurns ?? DEFAULT_MAX_TURNS,
      signal,
      state: () => this.state,
      emit: (e) => this.emit(e),
      output: (out) => this.publish(out),
      newId: this.newId,
      decision: (id) => this.decision(id, signal),
      rejectionReason: (id) => rejectionReason(this.log, id),
      takeFoldRequest: () => {
        const asked = this.foldRequested;
        this.foldRequested = false;
        return asked;
      },
      taskGrants: () => taskGrants(this.state),
      maxParallel: Math.max(1, o.maxParallel ?? 4),
      logFailure: () => this.log.failure(),
      durable: () => this.log.flush(),
      repoMap: o.repoMap,
      hooks: this.hooks,
      streamWatch: this.streamWatch,
    };
    return { ...host, frames: frameRunner(host, this.frameEnv(signal), 0, undefined) };
  }

  private frameEnv(signal: AbortSignal): FrameEnv {
    const limits = this.options.subagents ?? SUBAGENT_DEFAULTS;
    return {
      state: () => this.state,
      emit: (e, frame) => this.emitIn(e, frame),
      decision: (id) => this.decision(id, signal),
      childSystem: this.systemPrompt.child,
      maxChildTurns: limits.maxTurns,
      childTurnBudget: limits.turnBudget,
    };
  }

  /** Appends an event to the log in a child frame (undefined: the task's own). */
  private emitIn(input: RuntimeEventInput, frame: string | undefined): void {
    this.emit(frame === undefined ? input : ({ ...input, frame } as RuntimeEventInput));
  }

  private emit(input: RuntimeEventInput): void {
    // The last line of defence: no error event reaches the log, a listener or the UI with a key in it.
    this.log.append(redactEvent(input, this.options.secrets, this.options.secretDetector), this.runId);
  }

  private onEvent(event: RuntimeEvent): void {
    this.state = applyEvent(this.state, event);
    this.publish({ kind: 'event', event });
  }

  private publish(out: RuntimeOutput): void {
    this.queue?.push(out);
    for (const listener of this.listeners) listener(out);
  }

  private decision(id: string, signal: AbortSignal): Promise<Decision> {
    return this.waits.decision(id, () => {
      if (signal.aborted) return 'cancelled';
      const status = findIntent(this.state, id)?.intent.status;
      return status === 'approved' ? 'approved' : status === 'rejected' ? 'rejected' : undefined;
    });
  }

  /**
   * A standing approval was just given: other calls waiting for approval that it covers run
   * too — but only those the policy now allows. A call the policy asks about whatever the
   * grants (a protected path, a risky command) keeps waiting for its own answer.
   */
  private async approveCovered(grant: ReturnType<typeof grantFor>): Promise<void> {
    const host = this.host;
    if (!host) return;
    for (const { frame, intent } of pendingEverywhere(this.state)) {
      const id = intent.id;
      if (!grantCovers(grant, intent)) continue;
      // The grant goes along: a workspace grant may not have reached the store yet.
      const verdict = await askPolicy(host, intent, [grant]).catch(() => undefined);
      // Decided meanwhile (by the user, or the run ended): nothing left to do for it.
      if (verdict?.type !== 'allow' || this.host !== host || findIntent(this.state, id)?.intent.status !== 'awaiting_approval') continue;
      this.emitIn({ type: 'intent_approved', intentId: id, scope: 'once', auto: true, ...sandboxOf(verdict) }, frame);
      this.waits.wake(id);
    }
  }
}
