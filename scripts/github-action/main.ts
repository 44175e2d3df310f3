// The Keel GitHub Action (action.yml runs it): reads what started the job, checks who asked and
// whose code it is, runs `keel run` or `keel review` on the checkout, and posts the result (a pull
// request with the patch, a comment, or a review). Inputs come as INPUT_* variables, secrets only
// from the environment; every failure is one line on stderr and a non-zero exit.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type PullRequestInfo, pullRequestInfo, readEvent, type Trigger } from './event.js';
import { ActionError, canWrite, comment, type GitHub, gitHubClient, repoPath } from './github-api.js';
import { type KeelOptions, keelReview, keelRun } from './keel-process.js';
import { headOf, openPullRequest, postReview, pullRequestBase, runSummary } from './publish.js';

interface Context {
  github: GitHub;
  repo: string;
  trigger: Trigger;
  keel: KeelOptions;
}

/** An input as GitHub names it (INPUT_ALLOW-FORKS), or with _ for - where a shell cannot set that name. */
function input(name: string): string {
  const upper = `INPUT_${name.toUpperCase()}`;
  return (process.env[upper] ?? process.env[upper.replace(/-/g, '_')] ?? '').trim();
}

async function main(): Promise<void> {
  const token = process.env.GITHUB_TOKEN;
  if (!token) throw new ActionError('GITHUB_TOKEN is not set: pass it as env (GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }})');
  const mode = input('mode') || 'run';
  if (mode !== 'run' && mode !== 'review') throw new ActionError(`input mode must be run or review, not ${JSON.stringify(mode)}`);
  const trigger = readEvent(process.env.GITHUB_EVENT_NAME ?? '', process.env.GITHUB_EVENT_PATH, input('task'));
  if (!trigger) return console.log('keel-action: not a /keel command, nothing to do.');
  const github = gitHubClient(process.env.GITHUB_API_URL || 'https://api.github.com', token);
  const repo = repoPath(process.env.GITHUB_REPOSITORY ?? '');
  const workspace = path.resolve(process.env.GITHUB_WORKSPACE || process.cwd());
  const context: Context = {
    github,
    repo,
    trigger,
    keel: { workspace, provider: input('provider'), model: input('model'), maxCost: input('max-cost') },
  };

  if (trigger.commenter && !(await canWrite(github, repo, trigger.commenter)))
    return refuse(context, `@${trigger.commenter} has no write permission on this repository, so Keel did not run.`);
  if (trigger.isPullRequest && !trigger.pullRequest)
    trigger.pullRequest = pullRequestInfo(await github.request('GET', `${repo}/pulls/${trigger.number}`));
  if (trigger.pullRequest?.fromFork && input('allow-forks') !== 'true')
    return refuse(
      context,
      'This pull request comes from a fork: Keel does not run on its code with a write token unless the workflow sets allow-forks: true.',
    );
  context.keel.config = configFile(workspace, trigger.pullRequest);
  if (mode === 'review') return review(context);
  return run(context);
}

/**
 * The approvals file from the workflow's `config` input. On a fork's code the checkout is the
 * fork's, so a file inside it would be the fork author's choice of approvals: refused.
 */
function configFile(workspace: string, pullRequest: PullRequestInfo | undefined): string | undefined {
  const given = input('config');
  if (!given) return undefined;
  const file = path.resolve(workspace, given);
  if (pullRequest?.fromFork && (file + path.sep).startsWith(workspace + path.sep))
    throw new ActionError('on a fork pull request the config file must come from outside the checkout (the fork controls its files)');
  if (!fs.existsSync(file)) throw new ActionError(`config file not found: ${given}`);
  return file;
}

async function run({ github, repo, trigger, keel }: Context): Promise<void> {
  if (!trigger.task) throw new ActionError('no task: write /keel <task>, or set the task input');
  const result = await toldOnFailure({ github, repo, trigger, keel }, keelRun(trigger.task, keel));
  output('status', result.status);
  const runId = process.env.GITHUB_RUN_ID || String(Date.now());
  if (result.filesChanged.length > 0) {
    const base = pullRequestBase(trigger, process.env.GITHUB_EVENT_NAME ?? '', headOf(keel.workspace), process.env.GITHUB_REF_NAME ?? '');
    const url = await openPullRequest(github, repo, result, { workspace: keel.workspace, runId, base, askedIn: trigger.number });
    output('pull-request', url);
    console.log(`keel-action: opened ${url}`);
    if (trigger.number) await comment(github, repo, trigger.number, `Keel opened ${url} (${result.status}).`);
  } else if (trigger.number) {
    output('comment', await comment(github, repo, trigger.number, runSummary(result)));
  } else {
    console.log(runSummary(result));
  }
  if (result.status !== 'done') process.exitCode = 1;
}

async function review({ github, repo, trigger, keel }: Context): Promise<void> {
  const pr = trigger.pullRequest;
  if (!pr || !trigger.number) throw new ActionError('review mode needs a pull request (a pull_request event or a /keel comment on one)');
  const result = await toldOnFailure({ github, repo, trigger, keel }, keelReview(pr.baseSha, keel));
  const id = await postReview(github, repo, trigger.number, pr.headSha, result);
  output('review-id', String(id));
  output('blocking', String(result.blocking));
  console.log(`keel-action: posted review ${id}: ${result.findings.length} line comments, ${result.general.length} general.`);
}

/** When keel itself fails, whoever asked is told in one comment (the details are in the job's log), then the job fails. */
async function toldOnFailure<T>({ github, repo, trigger }: Context, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (trigger.number)
      await comment(github, repo, trigger.number, `Keel could not finish: ${(err as Error).message}. The job's log has the details.`);
    throw err;
  }
}

/** A refusal: said once on the issue or pull request (when there is one) and on stderr, exit 1. */
async function refuse({ github, repo, trigger }: Context, why: string): Promise<void> {
  if (trigger.number) await comment(github, repo, trigger.number, why);
  output('status', 'refused');
  console.error(`keel-action: ${why}`);
  process.exitCode = 1;
}

/** A step output (GITHUB_OUTPUT); values are one line, so a value cannot add outputs of its own. */
function output(name: string, value: string): void {
  const file = process.env.GITHUB_OUTPUT;
  if (file) fs.appendFileSync(file, `${name}=${value.replace(/[\r\n]+/g, ' ')}\n`);
}

main().catch((err: unknown) => {
  const message = err instanceof ActionError ? err.message : `unexpected failure: ${String((err as Error)?.message ?? err).split('\n')[0]}`;
  console.error(`keel-action: ${message}`);
  process.exitCode = 2;
});
