// A stand-in for the GitHub REST API on 127.0.0.1 for the action's tests: it records every request
// and answers the endpoints the action uses in GitHub's shapes (permission, pull request, Git data,
// pulls, comments, reviews); anything else is a 404 as GitHub would give.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface GitHubRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

export interface GitHubStandIn {
  url: string;
  requests: GitHubRequest[];
  posts(): GitHubRequest[];
  close(): Promise<void>;
}

export interface StandInState {
  /** login → permission (admin, write, read, none); a login not named gets read. */
  permissions: Record<string, string>;
  /** The object GET /repos/o/r/pulls/N answers with. */
  pullRequest?: unknown;
}

export async function startGitHubStandIn(state: StandInState): Promise<GitHubStandIn> {
  const requests: GitHubRequest[] = [];
  let next = 0;
  const sha = () => (++next).toString(16).padStart(40, 'a');
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const path = req.url ?? '';
      requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body: raw ? JSON.parse(raw) : undefined });
      const [status, body] = answer(req.method ?? '', path, state, sha);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    posts: () => requests.filter((r) => r.method === 'POST'),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function answer(method: string, path: string, state: StandInState, sha: () => string): [number, unknown] {
  const permission = /^\/repos\/[^/]+\/[^/]+\/collaborators\/([^/]+)\/permission$/.exec(path);
  if (method === 'GET' && permission) return [200, { permission: state.permissions[decodeURIComponent(permission[1]!)] ?? 'read' }];
  if (method === 'GET' && /\/pulls\/\d+$/.test(path) && state.pullRequest) return [200, state.pullRequest];
  if (method !== 'POST') return [404, { message: 'Not Found' }];
  if (/\/git\/(blobs|trees|commits)$/.test(path)) return [201, { sha: sha() }];
  if (path.endsWith('/git/refs')) return [201, { ref: 'refs/heads/x', object: { sha: sha() } }];
  if (path.endsWith('/pulls')) return [201, { number: 99, html_url: 'https://github.example/o/r/pull/99' }];
  if (/\/issues\/\d+\/comments$/.test(path)) return [201, { id: 5, html_url: 'https://github.example/o/r/issues/1#issuecomment-5' }];
  if (/\/pulls\/\d+\/reviews$/.test(path)) return [200, { id: 77, state: 'COMMENTED' }];
  return [404, { message: 'Not Found' }];
}
