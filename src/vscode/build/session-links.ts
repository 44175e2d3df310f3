// The calls that objects built before the session make to it: the task store's status changes,
// the factory's requests, the key-host question, a verdict taken in the diff editor, a message
// from the view and a run's changes. Each link is whole from the start and answers as a window
// without a session answers (nothing to tell, ask directly, not decided here); the session step
// answers them once the session exists, and the subscription it returns stops that.
import type * as vscode from 'vscode';
import type { ModelRequest, RunStatus } from '../../kernel/contracts/index.js';
import type { Task } from '../../host/tasks/task.js';
import type { ApprovalDecision } from '../../compose/approval-decision.js';

/** One call with one answerer at a time, and a default answer while none listens. */
class Link<A extends unknown[], R> {
  private answer: ((...args: A) => R) | undefined;

  constructor(private readonly unanswered: (...args: A) => R) {}

  call(...args: A): R {
    return (this.answer ?? this.unanswered)(...args);
  }

  answerWith(answer: (...args: A) => R): vscode.Disposable {
    this.answer = answer;
    return {
      dispose: () => {
        if (this.answer === answer) this.answer = undefined;
      },
    };
  }
}

export interface SessionLinks {
  readonly status: Link<[Task, RunStatus], void>;
  readonly request: Link<[string, ModelRequest], void>;
  /** A modal question: shown as the view's question while it is open. */
  readonly asking: Link<[string, () => PromiseLike<string | undefined>], PromiseLike<string | undefined>>;
  /** A verdict from the diff editor, for any task: the session's one approval decider (under the task lock). */
  readonly decide: Link<[Task, string, ApprovalDecision], Promise<boolean>>;
  readonly message: Link<[unknown], void>;
  readonly changesShown: Link<[Task, boolean], void>;
}

export function sessionLinks(): SessionLinks {
  const nothing = () => undefined;
  return {
    status: new Link<[Task, RunStatus], void>(nothing),
    request: new Link<[string, ModelRequest], void>(nothing),
    asking: new Link((_question: string, ask: () => PromiseLike<string | undefined>) => ask()),
    decide: new Link<[Task, string, ApprovalDecision], Promise<boolean>>(async () => false),
    message: new Link<[unknown], void>(nothing),
    changesShown: new Link<[Task, boolean], void>(nothing),
  };
}
