// What a Session needs from its host (the extension, or a test): the task store, the view's
// post, key and trust checks, the diff and terminal focus, the locks and the dialogs it may ask.
import type { LoadedCommand } from '../../compose/commands/load-commands.js';
import type { LoadedAgent } from '../../compose/agents/load-agents.js';
import type { Price } from '../../providers/models.js';
import type { Hints, HostMessage } from '../../protocol/index.js';
import type { Attention } from './attention.js';
import type { Task } from '../tasks/task.js';
import type { TaskLocks } from '../tasks/task-lock.js';
import type { TaskStore } from '../tasks/task-store.js';

/** The answer to "the task changed files after the message you edit: put them back?" */
export type ForkFiles = 'restore' | 'keep';

export interface SessionDeps {
  tasks: TaskStore;
  post(message: HostMessage): void;
  /** True when no API key can be found for the current settings. */
  keyMissing(): Promise<boolean>;
  /** Whether the provider needs no key at all (a local server, the stand-in); absent: it does. */
  keyNotNeeded?(): Promise<boolean>;
  trusted(): boolean;
  /** A task's model: its context window (0 when unknown) and price (undefined when unknown). */
  model(task: Task): { contextWindow: number; price: Price | undefined };
  /** Opens the diff of an edit intent (true) or says there is none (false). */
  focusIntent(task: Task, intentId: string): Promise<boolean>;
  /** Follows a task for diff approvals; returns the unfollow. */
  watch(task: Task): () => void;
  setContext(key: string, value: unknown): void;
  /** The header's model and auto-approve state, from the settings. */
  headerHints?(): Pick<Hints, 'model' | 'autoApprove' | 'endpoint'>;
  /** The slash commands the composer lists while no task is shown (a new window); a task lists its own. */
  commands?(): Promise<readonly LoadedCommand[]>;
  /** The custom agents the header's picker lists while no task is shown; a task lists its own. */
  agents?(): Promise<readonly LoadedAgent[]>;
  /** The task was shown, or one of its runs ended: its Files changed summaries get their counts. */
  changesShown?(task: Task, runEnded: boolean): void;
  log: { info(m: string): void; warn(m: string): void; error(m: string): void };
  /** One window drives a task at a time (task-lock.ts); none: this window alone. */
  locks?: Pick<TaskLocks, 'claim' | 'release' | 'heldElsewhere'>;
  /** Tells the user why an action was refused (a warning notification). */
  refuse?(message: string): void;
  /**
   * Edit and resend of a message after which the task changed files: restore them to how they
   * were before that message, keep them, or (undefined) do nothing. Absent: keep.
   */
  askForkFiles?(paths: readonly string[]): Promise<ForkFiles | undefined>;
  /** Before a restore overwrites files changed since Keel wrote them (a modal). */
  confirmOverwrite?(paths: readonly string[]): Promise<boolean>;
  /** The badge and the notifications when Keel needs the user (attention.ts). */
  attention?: Pick<Attention, 'waiting' | 'cardWaits' | 'runEnded'>;
}

/** The view's key hints: none found, or none needed (left out when the host cannot tell). */
export async function keyHints(deps: Pick<SessionDeps, 'keyMissing' | 'keyNotNeeded'>): Promise<Pick<Hints, 'noApiKey' | 'keyNotNeeded'>> {
  const noApiKey = await deps.keyMissing();
  return deps.keyNotNeeded ? { noApiKey, keyNotNeeded: await deps.keyNotNeeded() } : { noApiKey };
}
