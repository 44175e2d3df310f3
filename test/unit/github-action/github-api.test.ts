// The action's GitHub client on its own: what a failed call says (one line, GitHub's message, never
// the token), which repository names reach a URL path, and how model text is made fit to post.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gitHubClient, repoPath, safeBody } from '../../../scripts/github-action/github-api.js';

describe('the action: its GitHub client', () => {
  it("a failed call is one line with GitHub's message and status, without the token", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Resource not accessible\nby integration' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const github = gitHubClient(`http://127.0.0.1:${port}/`, 'ghs_secret');
      await assert.rejects(github.request('POST', '/repos/o/r/pulls', {}), (err: Error) => {
        assert.equal(err.message, 'GitHub API POST /repos/o/r/pulls: 403 Resource not accessible by integration');
        return true;
      });
    } finally {
      server.close();
    }
  });

  it('takes owner/name only: nothing that could climb out of /repos/', () => {
    assert.equal(repoPath('keel-dev/keel'), '/repos/keel-dev/keel');
    for (const bad of ['../x', 'o/r/issues', 'o', 'o/r?x=1', '']) assert.throws(() => repoPath(bad), /not a repository name/);
  });

  it('defuses @mentions and cuts text below GitHub’s size limit', () => {
    assert.equal(safeBody('ping @octocat and @org/team, mail a@b.c'), 'ping @\u200boctocat and @\u200borg/team, mail a@\u200bb.c');
    const long = safeBody('x'.repeat(70_000));
    assert.ok(long.length < 65_536, String(long.length));
    assert.match(long, /…\(cut\)$/);
  });
});
