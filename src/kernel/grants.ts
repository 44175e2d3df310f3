// Standing approvals: what a grant given to one call covers (the tool, a command's exact line, a
// URL's origin), so the reducer, the policy and the presenter judge calls by one rule.
import type { ConversationState, Grant } from './contracts/state.js';
import type { ToolIntent } from './contracts/tool.js';

export function addGrant(s: ConversationState, intentId: string, scope: 'once' | 'task' | 'workspace'): Grant[] {
  if (scope !== 'task') return s.grants;
  const intent = s.intents[intentId];
  if (!intent) return s.grants;
  return [...s.grants, grantFor(intent, 'task')];
}

/**
 * A standing approval covering calls like this one: the tool, for commands the exact line, and
 * for calls naming a `url` that URL's origin (a grant for one site lets no other run unasked).
 */
export function grantFor(intent: ToolIntent, scope: Grant['scope']): Grant {
  return { tool: intent.tool, ...grantTarget(intent), scope };
}

/**
 * A grant covers calls of its tool with the same command line and the same URL origin: a grant
 * given to a call with no command (a file tool, or run_tests running the detected command)
 * covers no explicit command, and one with no origin (kept from before origins) covers no URL.
 */
export function grantCovers(grant: Grant, intent: ToolIntent): boolean {
  if (grant.tool !== intent.tool) return false;
  const target = grantTarget(intent);
  return target.command === grant.command && target.origin === grant.origin;
}

function grantTarget(intent: ToolIntent): Pick<Grant, 'command' | 'origin'> {
  const input = intent.input as { command?: unknown; url?: unknown } | null;
  return {
    ...(typeof input?.command === 'string' ? { command: input.command } : {}),
    ...(typeof input?.url === 'string' ? { origin: urlOrigin(input.url) } : {}),
  };
}

/** Scheme, host and port of an http(s) URL; any other text is granted only as written. */
function urlOrigin(url: string): string {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.origin;
  } catch {
    // Not a URL: the grant names the exact text.
  }
  return url;
}
