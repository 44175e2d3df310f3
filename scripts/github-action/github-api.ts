// The few GitHub REST calls the Keel action makes, through fetch to $GITHUB_API_URL (GitHub sets
// it; the tests point it at a stand-in on 127.0.0.1). The token is sent only in the header and
// never appears in an error: a failed call is one line naming the method, path and GitHub's message.

export class ActionError extends Error {}

export interface GitHub {
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

export function gitHubClient(apiUrl: string, token: string): GitHub {
  const base = apiUrl.replace(/\/+$/, '');
  return {
    async request<T>(method: string, path: string, body?: unknown): Promise<T> {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: {
            accept: 'application/vnd.github+json',
            authorization: `Bearer ${token}`,
            'x-github-api-version': '2022-11-28',
            'user-agent': 'keel-action',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        throw new ActionError(`GitHub API ${method} ${path}: ${(err as Error).message}`);
      }
      const text = await response.text();
      if (!response.ok) throw new ActionError(`GitHub API ${method} ${path}: ${response.status} ${githubMessage(text)}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
}

/** GitHub's own message from an error body, one line and short (the body is untrusted). */
function githubMessage(text: string): string {
  let message = text;
  try {
    message = String(JSON.parse(text).message ?? text);
  } catch {
    // Not JSON: the raw text, cut below.
  }
  return message.replace(/\s+/g, ' ').slice(0, 200);
}

/** `owner/name` split, refused unless it looks like a repository name (it goes into URL paths). */
export function repoPath(fullName: string): string {
  const dotsOnly = fullName.split('/').some((part) => /^\.+$/.test(part));
  if (dotsOnly || !/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(fullName))
    throw new ActionError(`not a repository name: ${JSON.stringify(fullName)}`);
  return `/repos/${fullName}`;
}

/** Whether USER may write to the repository (write, maintain or admin): a comment from anyone else starts nothing. */
export async function canWrite(github: GitHub, repo: string, user: string): Promise<boolean> {
  const answer = await github.request<{ permission?: string }>('GET', `${repo}/collaborators/${encodeURIComponent(user)}/permission`);
  return answer?.permission === 'admin' || answer?.permission === 'write' || answer?.permission === 'maintain';
}

/** A comment on an issue or pull request; returns its URL. */
export async function comment(github: GitHub, repo: string, number: number, body: string): Promise<string> {
  const answer = await github.request<{ html_url?: string }>('POST', `${repo}/issues/${number}/comments`, { body: safeBody(body) });
  return answer?.html_url ?? '';
}

const MAX_BODY = 60_000;

/**
 * Text from the model made fit to post: @mentions defused (a model must not ping people or teams)
 * and cut below GitHub's 65,536-character limit.
 */
export function safeBody(text: string): string {
  const defused = text.replace(/@(?=[A-Za-z0-9])/g, '@\u200b');
  return defused.length > MAX_BODY ? `${defused.slice(0, MAX_BODY)}\n\n…(cut)` : defused;
}
