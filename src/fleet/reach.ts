// Whether Redis answers before a fleet command starts: one connection that tries once, gives up
// after a few seconds and is closed again. A mistyped URL or a closed port is then one line naming
// the URL (its password hidden), never a command that hangs while ioredis retries for ever. The
// connections a command goes on to use do retry: an outage once it runs is waited out.
import { Redis } from 'ioredis';

/** How long a fleet command waits for Redis to answer at start. */
const REACH_MS = 3000;

/** Redis did not answer at start: the message names the URL and why (exit 2, no trace). */
export class RedisUnreachable extends Error {
  override name = 'RedisUnreachable';
}

/** The URL as messages show it: a password in it is replaced by `***`. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(an unparseable Redis URL)';
  }
}

/** Resolves once Redis at `url` answers PING; rejects with RedisUnreachable within about `timeoutMs`. */
export async function reachRedis(url: string, timeoutMs = REACH_MS): Promise<void> {
  let probe: Redis;
  try {
    probe = new Redis(url, {
      lazyConnect: true,
      connectTimeout: timeoutMs,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
  } catch (err) {
    throw new RedisUnreachable(`Cannot use the Redis URL ${shownUrl(url)}: ${(err as Error).message}`);
  }
  let lastError = '';
  probe.on('error', (err: Error) => {
    lastError = err.message;
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  });
  try {
    await Promise.race([probe.connect().then(() => probe.ping()), timeout]);
  } catch (err) {
    throw new RedisUnreachable(`Cannot reach Redis at ${shownUrl(url)}: ${reason(lastError || (err as Error).message)}`);
  } finally {
    clearTimeout(timer);
    probe.disconnect();
  }
}

/** A connection error in a person's words (ioredis's own are `connect ECONNREFUSED 127.0.0.1:1`). */
function reason(message: string): string {
  if (/ECONNREFUSED/.test(message)) return 'the connection was refused (is redis-server running on that port?)';
  if (/ENOTFOUND|EAI_AGAIN/.test(message)) return 'the host name does not resolve';
  if (/NOAUTH|WRONGPASS|invalid password/i.test(message)) return 'Redis refused the password';
  if (/Unknown RESP type|Protocol error/i.test(message)) return 'what answers there does not speak the Redis protocol';
  return message.replace(/\s+/g, ' ').trim() || 'it did not answer';
}
