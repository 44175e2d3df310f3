// The view's session: which task is shown, and the bridge between that task's runtime, the
// presenter (deltas and snapshots for the webview) and the webview's messages. No UI of its
// own; the view, the diff approvals and the key lookup are passed in.
import {
  isLiveStatus,
  type AgentMode,
  type ApprovalScope,
  type Attachment,
  type FoldOutcome,
  type ImagePart,
  type ModelRequest,
  type RunStatus,
} from '../../kernel/contracts/index.js';

import type { TaskList } from '../../protocol/index.js';
import { findIntent } from '../../kernel/state-queries.js';
import { Presenter } from '../presenter/index.js';
import type { Task } from '../tasks/task.js';
import { taskTitleFrom } from './prompts.js';
import { HELD_ELSEWHERE } from '../tasks/task-lock.js';
import { failedMessage } from '../tasks/task-facts.js';
import { taskListOf } from '../tasks/task-list.js';
import { filesForFork } from './fork-files.js';
import { noticeEvent } from './attention.js';
import { endsRun, initialState, type UserInput } from '../../kernel/index.js';
import { noPlanWaiting, planReplyInput } from '../../compose/plan-approval.js';
import { agentViews, composerInput } from './agent-pick.js';
import { decideApproval, type ApprovalDecision } from '../../compose/approval-decision.js';
import { keyHints, type SessionDeps } from './session-deps.js';
import { commandViews } from './slash-command.js';
import { followProcesses, stopShownProcess } from './process-hints.js';

export type { ForkFiles, SessionDeps } from './session-deps.js';

/** What the view shows while no task is: the kernel's state of an empty task. */
const NO_TASK = initialState();

export class Session {
  readonly presenter: Presenter;
  private task: Task | undefined;
  private unfollow: (() => void)[] = [];
  /** Tasks another window drives now (their lock is live), as last checked. */
  private elsewhere = new Set<string>();
  /** Bumped by every settings change; a task's runtime is stale when built in an older one. */
  private generation = 0;
  private readonly builtIn = new WeakMap<Task, number>();
  /** The key hints: never read, posted as unread (the view's key line unsaid), or read. */
  private keyHints: 'never' | 'unsaid' | 'read' = 'never';

  constructor(private readonly deps: SessionDeps) {
    this.presenter = new Presenter({ post: (m) => deps.post(m), kernel: () => this.task?.getState() ?? NO_TASK });
  }

  get current(): Task | undefined {
    return this.task;
  }

  /** The webview (re)loaded: the whole view once the task is read; the slow hints follow (key line unsaid). */
  async ready(): Promise<void> {
    await this.deps.tasks.refresh();
    if (!this.task) {
      const [latest] = this.deps.tasks.list();
      if (latest) await this.show(await this.deps.tasks.get(latest.id), false);
    }
    await this.checkElsewhere();
    if (this.keyHints !== 'read') {
      this.presenter.setHints({ keyUnread: true, restricted: !this.deps.trusted(), ...this.deps.headerHints?.() });
      this.keyHints = 'unsaid';
    }
    this.presenter.setTasks(this.taskList());
    this.presenter.postSnapshot();
    await this.refreshHints();
  }

  /** Picks up tasks other windows on this folder started, then lists them in the view. */
  async refreshHistory(): Promise<void> {
    await this.deps.tasks.refresh();
    await this.checkElsewhere();
    this.presenter.setTasks(this.taskList());
  }

  /** Which listed tasks, live by the shared index, another window drives (no Resume offered there). */
  private async checkElsewhere(): Promise<void> {
    const locks = this.deps.locks;
    if (!locks) return;
    const next = new Set<string>();
    for (const entry of this.deps.tasks.list()) {
      if (isLiveStatus(entry.status) && (await locks.heldElsewhere(entry.id).catch(() => undefined))) next.add(entry.id);
    }
    this.elsewhere = next;
    if (this.task && next.has(this.task.id)) this.presenter.setHints({ canResume: false });
  }

  /** A new, empty task; the one shown already is one when nothing was sent in it (no empty rows pile up). */
  async newTask(): Promise<Task> {
    const shown = this.task;
    if (shown && !shown.busy && shown.getEvents().length === 0) {
      this.presenter.postSnapshot();
      return shown;
    }
    const task = await this.deps.tasks.create();
    await this.show(task);
    return task;
  }

  async openTask(id: string): Promise<void> {
    if (this.task?.id === id) return this.presenter.postSnapshot();
    if (!this.knowsTask(id)) return this.deps.log.warn(`ignored opening an unknown task ${id}`);
    await this.show(await this.deps.tasks.get(id));
  }

  async deleteTask(id: string): Promise<void> {
    if (!this.knowsTask(id)) return this.deps.log.warn(`ignored deleting an unknown task ${id}`);
    const wasCurrent = this.task?.id === id;
    if (wasCurrent) this.detach();
    await this.deps.tasks.delete(id);
    if (wasCurrent) {
      this.task = undefined;
      this.presenter.reset(undefined);
    }
    this.presenter.setTasks(this.taskList());
    if (wasCurrent) this.presenter.postSnapshot();
  }

  /** A task in this workspace's history (or open in this window). */
  knowsTask(id: string): boolean {
    return !!this.deps.tasks.entry(id) || !!this.deps.tasks.loaded(id);
  }

  /** The user's message: to the current task, or a new one when there is none or it is busy. */
  async send(
    text: string,
    { agent: agentName, ...extra }: { attachments?: Attachment[]; images?: ImagePart[]; mode?: AgentMode; agent?: string } = {},
  ): Promise<Task> {
    let task = this.task;
    if (!task || task.busy) task = await this.newTask();
    task = await this.fresh(task);
    if (!(await this.drive(task))) return task;
    // `/name args` expanded and the header's agent resolved as keel run does; a refusal sends nothing.
    const sent = await composerInput(task, text, agentName);
    if (sent.type === 'refused') {
      this.deps.refuse?.(sent.message);
      return task;
    }
    await this.deps.tasks.titleFromMessage(task.id, text);
    // The header's mode picker: sent with the message, logged before it when it changes the mode.
    await this.start(task, { ...sent.input, ...extra });
    return task;
  }

  /**
   * The user approved the plan a Plan-mode run wrote (its to-do list): the task goes on in Agent
   * mode, the list carried as it is. Ignored unless the shown task is idle in Plan with a list.
   */
  async approvePlan(): Promise<void> {
    const why = !this.task ? 'no task is shown' : this.task.busy ? 'the task is busy' : noPlanWaiting(this.task.getState());
    const input = planReplyInput({ type: 'approve' });
    if (why || !input) return this.deps.log.warn(`ignored a plan approval: ${why ?? 'nothing to send'}`);
    await this.send(input.text, input.mode ? { mode: input.mode } : {});
  }

  /**
   * Edit and resend: a new task with the shown task's conversation up to the user message
   * `messageId` (`u<seq>`), then `text` sent in its place. The original task is left as it was.
   * When the task changed files after that message, the user is asked first whether to put them
   * back as they were before it (the answer the edited message would have started from).
   */
  async fork(messageId: string, text: string): Promise<Task | undefined> {
    const task = this.task;
    const seq = /^u(\d+)$/.exec(messageId)?.[1];
    const event = seq === undefined ? undefined : task?.getEvents().find((e) => e.seq === Number(seq));
    if (!task || event?.type !== 'user_message')
      return void this.deps.log.warn(`ignored editing ${messageId}: no such message in the task shown`);
    if (task.busy) return void this.deps.refuse?.('Stop the task (or let it finish) before editing an earlier message.');
    if (!(await filesForFork(task, event.seq, this.deps))) return undefined;
    // The fork holds everything before the edited message; "(edited)" tells it from the original.
    const fork = await this.deps.tasks.fork(task.id, event.seq - 1, `${taskTitleFrom(text)} (edited)`);
    await this.show(fork);
    if (!(await this.drive(fork))) return fork;
    await this.start(fork, text);
    return fork;
  }

  /**
   * Retry on a failed run: the message that started it goes again (a new run), with the settings
   * as they are now (a fixed keel.baseUrl is used). Only the task's latest run, when it failed,
   * can be retried; `noticeId` (`n<seq>`) names the failure the user clicked.
   */
  async retry(noticeId?: string): Promise<void> {
    const shown = this.task;
    if (!shown || shown.busy) return this.deps.log.warn('ignored a retry: no idle task is shown');
    const message = failedMessage(shown, noticeId);
    if (!message) return this.deps.log.warn(`ignored a retry of ${shown.id}: ${noticeId ?? 'its last run'} is not its latest failure`);
    const task = await this.fresh(shown);
    if (!(await this.drive(task))) return;
    const { text, attachments, images } = message;
    await this.start(task, { text, ...(attachments?.length ? { attachments } : {}), ...(images?.length ? { images } : {}) });
  }

  /** A run of `task` starts with `input`: the hints as they are now, then the run, the view told. */
  private async start(task: Task, input: UserInput): Promise<void> {
    await this.refreshHints();
    void task.send(input);
    this.deps.setContext('keel.running', true);
    this.presenter.setTasks(this.taskList());
  }

  /**
   * The settings (or an agent, command or MCP file) changed: runtimes built before are stale (the
   * provider, model, the files read). The shown task, when idle, is rebuilt now so the view follows;
   * any other is rebuilt before it next runs.
   */
  async settingsChanged(): Promise<void> {
    this.generation++;
    if (this.task) await this.fresh(this.task);
    await this.refreshHints();
  }

  /** The task with a runtime built from the current settings (rebuilt from its log if idle and stale). */
  private async fresh(task: Task): Promise<Task> {
    if ((this.builtIn.get(task) ?? this.generation) === this.generation || task.busy) return task;
    if (!(await this.deps.tasks.unload(task.id))) return task;
    const again = await this.deps.tasks.get(task.id);
    if (this.task === task) await this.show(again);
    return again;
  }

  stop(): void {
    this.task?.runtime.cancel();
  }

  /** Stop on a background process in the panel: the shown task's process of that name ends. */
  async stopProcess(name: string): Promise<void> {
    const problem = await stopShownProcess(this.task?.runtime, name);
    if (problem) this.deps.log.warn(`ignored stopping ${name}: ${problem}`);
  }

  async resume(): Promise<void> {
    const task = this.task;
    if (!task?.interrupted) return;
    if (!(await this.drive(task))) return;
    this.presenter.setHints({ canResume: false });
    void task.resume();
    this.deps.setContext('keel.running', true);
  }

  /** Fold now: the current task's finished steps into an episode note. */
  async fold(): Promise<FoldOutcome | undefined> {
    return this.task?.fold();
  }

  /** The card and the keys: an intent of the shown task. */
  async approve(intentId: string, scope: ApprovalScope): Promise<void> {
    await this.decideShown(intentId, { approve: true, scope });
  }

  async reject(intentId: string, reason?: string): Promise<void> {
    await this.decideShown(intentId, { approve: false, reason: reason ?? '' });
  }

  private async decideShown(intentId: string, decision: ApprovalDecision): Promise<void> {
    if (this.task) await this.decideApproval(this.task, intentId, decision);
    else this.deps.log.warn(`ignored a decision on ${intentId}: no task is shown`);
  }

  /**
   * Where every approval route of this window ends (the card, the diff's title bar, the keys),
   * whichever task the intent belongs to: the task's lock is claimed first (drive), so a task
   * another window runs is never decided here. True when the decision was made.
   */
  async decideApproval(task: Task, intentId: string, decision: ApprovalDecision): Promise<boolean> {
    // Said at once (before any wait) when there is nothing to decide.
    const status = findIntent(task.getState(), intentId)?.intent.status;
    if (status !== 'awaiting_approval') {
      const what = decision.approve ? 'approval' : 'rejection';
      this.deps.log.warn(`ignored a ${what} of ${intentId}: ${status ? `it is ${status}` : `no such intent waits in task ${task.id}`}`);
      return false;
    }
    return (await decideApproval(task, intentId, decision, () => this.drive(task))) === 'decided';
  }

  /**
   * Before this window runs or decides anything in a task: it takes the task's lock, or, while
   * another window drives the task, refuses with a clear message (false).
   */
  private async drive(task: Task): Promise<boolean> {
    const outcome = await this.deps.locks?.claim(task.id).catch((error: unknown) => {
      // The lock could not be checked (disk): drive anyway, as before locks existed, and say so.
      this.deps.log.warn(`could not check the lock of ${task.id}: ${String(error)}`);
      return { ok: true } as const;
    });
    if (!outcome || outcome.ok) return true;
    this.deps.log.info(`refused driving ${task.id}: window ${outcome.holder.window} (pid ${outcome.holder.pid}) runs it`);
    this.deps.refuse?.(HELD_ELSEWHERE);
    this.elsewhere.add(task.id);
    this.presenter.setTasks(this.taskList());
    return false;
  }

  /** The shown task's oldest intent waiting for approval (what the approval keys decide). */
  oldestPendingIntent(): string | undefined {
    const intents = Object.values(this.task?.getState().intents ?? {});
    return intents.find((intent) => intent.status === 'awaiting_approval')?.id;
  }

  async focus(intentId: string): Promise<void> {
    if (!(this.task && findIntent(this.task.getState(), intentId)))
      return this.deps.log.warn(`ignored a focus request for an unknown intent ${intentId}`);
    await this.deps.focusIntent(this.task, intentId);
  }

  /** The kernel is about to send this request for `task`: exact meter split. */
  requestSent(task: Task | string, request: ModelRequest): void {
    const id = typeof task === 'string' ? task : task.id;
    if (this.task?.id === id) this.presenter.setRequest(request);
  }

  /** A task's status changed (index already updated). */
  statusChanged(task: Task, status: RunStatus): void {
    this.presenter.setTasks(this.taskList());
    if (task === this.task) this.deps.setContext('keel.running', task.busy || isLiveStatus(status));
    if (isLiveStatus(status)) this.elsewhere.delete(task.id);
    // The run ended (finished, failed, stopped): another window may drive the task now.
    if (!isLiveStatus(status) && !task.busy) void this.deps.locks?.release(task.id).catch(() => undefined);
  }

  /** Trust was granted: an idle task is rebuilt so its next run is offered every tool. */
  async trustChanged(): Promise<void> {
    const task = this.task;
    if (task && !task.busy && !task.interrupted && (await this.deps.tasks.unload(task.id))) {
      await this.show(await this.deps.tasks.get(task.id));
    }
    await this.refreshHints();
  }

  /**
   * Keel asks the user something in a dialog while a run waits on the answer (whether to send the
   * key to a host): the view says so instead of "Waiting for the model…". Returns the answer.
   */
  async asking<T>(question: string, ask: () => PromiseLike<T>): Promise<T> {
    this.presenter.setHints({ question });
    try {
      return await ask();
    } finally {
      this.presenter.setHints({ question: undefined });
    }
  }

  async refreshHints(): Promise<void> {
    const { task, deps } = this;
    // Read together (seconds in a new window: the key store, the command and agent files).
    const read = [keyHints(deps), commandViews(task, deps.commands), agentViews(task, deps.agents)] as const;
    const [key, commands, agents] = await Promise.all(read);
    const unsaid = this.keyHints === 'unsaid' ? { keyUnread: false } : {};
    this.keyHints = 'read';
    this.presenter.setHints({ ...key, ...unsaid, restricted: !this.deps.trusted(), ...this.deps.headerHints?.(), commands, agents });
  }

  dispose(): void {
    this.detach();
    this.presenter.dispose();
  }

  private async show(task: Task, post = true): Promise<void> {
    this.detach();
    this.task = task;
    if (!this.builtIn.has(task)) this.builtIn.set(task, this.generation);
    this.presenter.setToolKinds((tool) => task.runtime.tool?.(tool)?.kind);
    if (task.interrupted || !task.busy) {
      this.presenter.load(task.getEvents(), task.id);
    } else {
      // A run live in this window: rebuild without marking it interrupted.
      this.presenter.reset(task.id);
      for (const event of task.getEvents()) this.presenter.handle({ kind: 'event', event });
    }
    this.presenter.setModel(this.deps.model(task));
    // What the next request would be: an exact split for a task opened from its log.
    this.presenter.setRequest(task.runtime.preview());
    const follow = task.runtime.subscribe((out) => {
      this.presenter.handle(out);
      if (out.kind === 'event' && this.deps.attention)
        noticeEvent(this.deps.attention, out.event, task, () => this.presenter.pendingIds().length);
      // A fold changes the request at once; an idle task sends none to show it.
      if (out.kind === 'event' && out.event.type === 'context_folded') this.presenter.setRequest(task.runtime.preview());
      if (out.kind === 'event' && endsRun(out.event.type)) this.deps.changesShown?.(task, true);
    });
    const processes = followProcesses(task.runtime, (views) => this.presenter.setHints({ processes: views }));
    this.unfollow = [follow, this.deps.watch(task), processes];
    this.deps.attention?.waiting(this.presenter.pendingIds().length);
    this.deps.setContext('keel.running', task.busy);
    this.presenter.setTasks(this.taskList());
    if (post) this.presenter.postSnapshot();
    this.deps.changesShown?.(task, false);
  }

  private detach(): void {
    for (const f of this.unfollow) f();
    this.unfollow = [];
  }

  /** The history as the view lists it (task-list.ts). */
  taskList(): TaskList {
    return taskListOf(this.deps.tasks.list(), this.task?.id, this.elsewhere);
  }
}
