// Who may talk to `keel serve --a2a`, checked before the SDK sees a request. A web page the user
// opens can make the browser send requests to 127.0.0.1 (DNS rebinding: a name of the page's that
// resolves to this machine), so a request is accepted only when its Host names this server — a
// loopback name, or the --host given — with its port, and any Origin it carries is this server's
// own. Every request but the agent card's must then carry one of the server's bearer tokens; the
// token names the caller, and the SDK's task store keeps each caller's tasks apart (ListTasks,
// GetTask, cancel and artifacts see only the caller's own).
import { createHash, timingSafeEqual } from 'node:crypto';
import type express from 'express';
import type { User } from '@a2a-js/sdk/server';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '::1'];

export interface CallerGuardOptions {
  /** The address the server listens on (a name a request's Host may use besides loopback). */
  host: string;
  /** One or more tokens; each is a caller of its own. */
  tokens: readonly string[];
}

export interface CallerGuard {
  /** Refuses a request whose Host or Origin is not this server's (the port is read per request). */
  sameHost: express.RequestHandler;
  /** Refuses a request without one of the tokens, and notes which caller it is. */
  bearer: express.RequestHandler;
  /** The caller a request authenticated as, for the SDK (its task store is scoped by it). */
  user(req: express.Request): Promise<User>;
}

export function callerGuard(o: CallerGuardOptions): CallerGuard {
  const names = new Set([...LOOPBACK_NAMES, o.host.toLowerCase().replace(/^\[|\]$/g, '')]);
  const tokens = o.tokens.map((t) => ({ digest: digest(t), caller: `caller-${digest(t).toString('hex').slice(0, 12)}` }));
  const callers = new WeakMap<express.Request, string>();
  return {
    sameHost(req, res, next) {
      const port = req.socket.localPort;
      if (!ownAuthority(req.headers.host, names, port))
        return void res.status(403).json({ error: `This server answers only requests addressed to it (Host ${[...names][0]}:${port}).` });
      const origin = req.headers.origin;
      if (origin !== undefined && !ownOrigin(origin, names, port))
        return void res.status(403).json({ error: 'Requests from web pages of another origin are refused.' });
      next();
    },
    bearer(req, res, next) {
      const given = /^Bearer (.+)$/.exec(req.get('authorization') ?? '')?.[1];
      const match = given === undefined ? undefined : tokens.find((t) => timingSafeEqual(t.digest, digest(given)));
      if (!match) return void res.status(401).json({ error: 'A bearer token is required (Authorization: Bearer TOKEN).' });
      callers.set(req, match.caller);
      next();
    },
    user: async (req) => new Caller(callers.get(req) ?? ''),
  };
}

class Caller implements User {
  constructor(readonly userName: string) {}
  get isAuthenticated(): boolean {
    return this.userName !== '';
  }
}

/** Equal-length digests: comparing them in constant time tells nothing of a token's length. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** A Host header (name[:port]) naming one of the names and this port (absent: 80). */
function ownAuthority(authority: string | undefined, names: ReadonlySet<string>, port: number | undefined): boolean {
  if (!authority) return false;
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d+))?$/.exec(authority.trim().toLowerCase());
  if (!m) return false;
  const name = m[1] ?? m[2]!;
  return names.has(name) && Number(m[3] ?? 80) === port;
}

/** An Origin that is this server's own: http(s) on one of the names and this port. */
function ownOrigin(origin: string, names: ReadonlySet<string>, port: number | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return ownAuthority(url.host, names, port);
}
