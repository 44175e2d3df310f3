// What started the Keel action, read from the event payload GitHub writes ($GITHUB_EVENT_PATH):
// a `/keel <task>` comment on an issue or pull request, a label, or a manual workflow_dispatch.
// The payload is untrusted input: only the fields used here are read, each checked for its type.
import * as fs from 'node:fs';
import { ActionError } from './github-api.js';

export interface Trigger {
  /** The issue or pull request to answer on (undefined for workflow_dispatch). */
  number?: number;
  isPullRequest: boolean;
  /** Who wrote the comment, when a comment started it: their permission is checked first. */
  commenter?: string;
  /** The task: a comment's text after `/keel`, else the task input, else the title and body. */
  task: string;
  defaultBranch: string;
  /** Known from the payload for pull_request events; for a comment on a pull request it is fetched. */
  pullRequest?: PullRequestInfo;
}

export interface PullRequestInfo {
  baseSha: string;
  headSha: string;
  headRef: string;
  /** The head branch lives in another repository (a fork): its code is untrusted. */
  fromFork: boolean;
}

const COMMAND = /^\/keel(?:\s+([\s\S]*))?$/;

export function readEvent(eventName: string, eventPath: string | undefined, taskInput: string): Trigger | undefined {
  if (!eventPath) throw new ActionError('GITHUB_EVENT_PATH is not set: run this inside a GitHub Actions job');
  let payload: unknown;
  try {
    payload = JSON.parse(fs.readFileSync(eventPath, 'utf8'));
  } catch (err) {
    throw new ActionError(`cannot read the event payload ${eventPath}: ${(err as Error).message.split('\n')[0]}`);
  }
  const defaultBranch = text(at(payload, 'repository', 'default_branch')) || 'main';
  if (eventName === 'issue_comment' || eventName === 'pull_request_review_comment') return fromComment(payload, defaultBranch);
  if (eventName === 'workflow_dispatch') return { isPullRequest: false, task: taskInput, defaultBranch };
  if (eventName === 'issues' || eventName === 'pull_request' || eventName === 'pull_request_target') {
    const item = at(payload, 'pull_request') ?? at(payload, 'issue');
    const number = Number(at(item, 'number'));
    if (!Number.isInteger(number)) throw new ActionError(`the ${eventName} payload names no issue or pull request number`);
    const task = taskInput || [text(at(item, 'title')), text(at(item, 'body'))].filter(Boolean).join('\n\n');
    const pullRequest = at(payload, 'pull_request') ? pullRequestInfo(at(payload, 'pull_request')) : undefined;
    return { number, isPullRequest: pullRequest !== undefined, task, defaultBranch, pullRequest };
  }
  throw new ActionError(`unsupported event ${JSON.stringify(eventName)}: use issue_comment, issues, pull_request or workflow_dispatch`);
}

/** A comment that is not a `/keel` command starts nothing (undefined). */
function fromComment(payload: unknown, defaultBranch: string): Trigger | undefined {
  const body = text(at(payload, 'comment', 'body')).trim();
  const match = COMMAND.exec(body);
  if (!match) return undefined;
  const item = at(payload, 'issue') ?? at(payload, 'pull_request');
  const number = Number(at(item, 'number'));
  if (!Number.isInteger(number)) throw new ActionError('the comment payload names no issue or pull request number');
  const commenter = text(at(payload, 'comment', 'user', 'login'));
  if (!commenter) throw new ActionError('the comment payload names no author');
  const isPullRequest = Boolean(at(payload, 'issue', 'pull_request')) || Boolean(at(payload, 'pull_request'));
  const pullRequest = at(payload, 'pull_request') ? pullRequestInfo(at(payload, 'pull_request')) : undefined;
  return { number, isPullRequest, commenter, task: (match[1] ?? '').trim(), defaultBranch, pullRequest };
}

/** From a pull request object (the payload's or GET /pulls/N): its base, head, and whether the head is a fork. */
export function pullRequestInfo(pr: unknown): PullRequestInfo {
  const baseSha = text(at(pr, 'base', 'sha'));
  const headSha = text(at(pr, 'head', 'sha'));
  if (!/^[0-9a-f]{40}$/.test(baseSha) || !/^[0-9a-f]{40}$/.test(headSha))
    throw new ActionError('the pull request names no base or head commit');
  const headRepo = text(at(pr, 'head', 'repo', 'full_name'));
  const baseRepo = text(at(pr, 'base', 'repo', 'full_name'));
  // A deleted fork has head.repo null: treat it as a fork too.
  const fromFork = at(pr, 'head', 'repo', 'fork') === true || !headRepo || headRepo !== baseRepo;
  return { baseSha, headSha, headRef: text(at(pr, 'head', 'ref')), fromFork };
}

/** The value at a path of keys in untrusted JSON, or undefined where any step is missing. */
function at(value: unknown, ...keys: string[]): unknown {
  let here = value;
  for (const key of keys) here = here !== null && typeof here === 'object' ? (here as Record<string, unknown>)[key] : undefined;
  return here;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
