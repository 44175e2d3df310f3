// Puts the action's results on GitHub: a run that changed files becomes a branch keel/<run-id>
// and a pull request, made with the Git data API (blobs, a tree on the checkout's tree, a commit
// on the checked-out commit, a ref) so nothing is pushed from the runner's git; a review becomes
// one pull request review, findings on a diff line as line comments, the others in its body.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionError, type GitHub, safeBody } from './github-api.js';
import type { Trigger } from './event.js';
import type { Finding, ReviewResult, RunResult } from './keel-process.js';

export interface PullRequestTarget {
  workspace: string;
  runId: string;
  /** The branch the new pull request asks to merge into. */
  base: string;
  /** The issue or pull request that asked, named in the new pull request's body. */
  askedIn?: number;
}

export async function openPullRequest(github: GitHub, repo: string, result: RunResult, target: PullRequestTarget): Promise<string> {
  const parent = headOf(target.workspace);
  const baseTree = git(target.workspace, 'rev-parse', 'HEAD^{tree}');
  const entries = [];
  for (const change of result.filesChanged) entries.push(await treeEntry(github, repo, target.workspace, change));
  const tree = await github.request<{ sha: string }>('POST', `${repo}/git/trees`, { base_tree: baseTree, tree: entries });
  const title = `Keel: ${firstLine(result.answer) || 'changes'}`.slice(0, 120);
  const commit = await github.request<{ sha: string }>('POST', `${repo}/git/commits`, {
    message: title,
    tree: tree.sha,
    parents: [parent],
  });
  const branch = `keel/${target.runId}`;
  await github.request('POST', `${repo}/git/refs`, { ref: `refs/heads/${branch}`, sha: commit.sha });
  const asked = target.askedIn ? `Asked in #${target.askedIn}.\n\n` : '';
  const pr = await github.request<{ html_url?: string }>('POST', `${repo}/pulls`, {
    title,
    head: branch,
    base: target.base,
    body: safeBody(`${asked}${result.answer}\n\n${fileList(result)}`),
  });
  return String(pr?.html_url ?? '');
}

/**
 * The branch a new pull request targets: the one the fix commit was made on. A pull request's own
 * branch when that is what the job checked out (and it is in this repository, not a fork); the
 * branch a manual run was started on; else the default branch.
 */
export function pullRequestBase(trigger: Trigger, eventName: string, checkedOut: string, refName: string): string {
  const pr = trigger.pullRequest;
  if (pr && !pr.fromFork && pr.headRef && checkedOut === pr.headSha) return pr.headRef;
  if (eventName === 'workflow_dispatch' && refName) return refName;
  return trigger.defaultBranch;
}

export function headOf(workspace: string): string {
  return git(workspace, 'rev-parse', 'HEAD');
}

async function treeEntry(github: GitHub, repo: string, workspace: string, change: RunResult['filesChanged'][number]) {
  const relative = change.path;
  const file = path.resolve(workspace, relative);
  if (relative.startsWith('/') || !file.startsWith(path.resolve(workspace) + path.sep))
    throw new ActionError(`a changed path outside the workspace: ${relative}`);
  // sha null deletes the path from the base tree.
  if (change.change === 'deleted') return { path: relative, mode: '100644', type: 'blob', sha: null };
  const stat = fs.lstatSync(file);
  if (!stat.isFile()) throw new ActionError(`a changed path that is not a file: ${relative}`);
  const blob = await github.request<{ sha: string }>('POST', `${repo}/git/blobs`, {
    content: fs.readFileSync(file).toString('base64'),
    encoding: 'base64',
  });
  return { path: relative, mode: stat.mode & 0o111 ? '100755' : '100644', type: 'blob', sha: blob.sha };
}

/** A comment's text for a run that changed no file (or could not open a pull request). */
export function runSummary(result: RunResult): string {
  const cost = typeof result.costUsd === 'number' ? ` · $${result.costUsd.toFixed(2)}` : '';
  return `**Keel: ${result.status}**${cost} — ${result.reason}\n\n${result.answer || '(no answer)'}`;
}

export async function postReview(github: GitHub, repo: string, number: number, headSha: string, review: ReviewResult): Promise<number> {
  const general = review.general.map((f) => `- **${f.severity}** \`${f.file}:${f.line}\`: ${f.body}`);
  const heading = `**Keel review**: ${review.findings.length + review.general.length} findings, ${review.blocking} blocking.`;
  const answer = await github.request<{ id?: number }>('POST', `${repo}/pulls/${number}/reviews`, {
    commit_id: headSha,
    event: 'COMMENT',
    body: safeBody([heading, ...general].join('\n')),
    comments: review.findings.map((f) => ({ path: f.file, line: f.line, side: 'RIGHT', body: safeBody(findingBody(f)) })),
  });
  return Number(answer?.id);
}

function findingBody(finding: Finding): string {
  const suggestion = finding.suggestion === undefined ? '' : `\n\n\`\`\`suggestion\n${finding.suggestion.replace(/`{3,}/g, '')}\n\`\`\``;
  return `**${finding.severity}**: ${finding.body}${suggestion}`;
}

function fileList(result: RunResult): string {
  return result.filesChanged.map((f) => `- ${f.change} \`${f.path}\``).join('\n');
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? ''
  );
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}
