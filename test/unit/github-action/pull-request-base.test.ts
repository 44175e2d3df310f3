// Which branch the action's pull request targets: the branch the fix commit was made on, so the
// pull request shows only Keel's change (never a fork's branch, never a merge ref like 7/merge).
import assert from 'node:assert/strict';
import type { Trigger } from '../../../scripts/github-action/event.js';
import { pullRequestBase } from '../../../scripts/github-action/publish.js';

const HEAD = 'c'.repeat(40);

function onPullRequest(fromFork: boolean): Trigger {
  return {
    number: 3,
    isPullRequest: true,
    task: 't',
    defaultBranch: 'trunk',
    pullRequest: { baseSha: 'a'.repeat(40), headSha: HEAD, headRef: 'feature', fromFork },
  };
}

describe('the action: the base of the pull request it opens', () => {
  it("is the pull request's branch when the job checked out its head", () => {
    assert.equal(pullRequestBase(onPullRequest(false), 'issue_comment', HEAD, 'trunk'), 'feature');
  });

  it('is the default branch when the checkout is another commit, or the head is a fork', () => {
    assert.equal(pullRequestBase(onPullRequest(false), 'pull_request', 'd'.repeat(40), '3/merge'), 'trunk');
    assert.equal(pullRequestBase(onPullRequest(true), 'issue_comment', HEAD, 'trunk'), 'trunk');
  });

  it('is the branch a workflow_dispatch ran on', () => {
    const manual: Trigger = { isPullRequest: false, task: 't', defaultBranch: 'trunk' };
    assert.equal(pullRequestBase(manual, 'workflow_dispatch', HEAD, 'release'), 'release');
    assert.equal(pullRequestBase(manual, 'issues', HEAD, 'release'), 'trunk');
  });
});
