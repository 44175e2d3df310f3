// The model gate in Redis, shared by every worker of a queue. Slots are leases in a sorted set,
// scored by when they expire: a worker killed mid-request loses its slot when the lease runs out
// (a live one renews it), so the fleet never exceeds the limit and never leaks it for good. The
// check and the take are one Lua script on Redis's clock, so machines with skewed clocks agree.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { GateLease, GateLimits, ModelGate } from './model-gate.js';

const LEASE_MS = 15_000;
/** How often a waiting request asks again when the gate is full (with jitter). */
const POLL_MS = 15;

// KEYS: leases, starts (per-minute window), pause. ARGV: token, leaseMs, concurrency, perMinute.
// Returns 0 when the slot is taken, else how long to wait (ms; -1: until a slot frees). Without a
// concurrency limit there is no slot to hold: no lease is written (nor removed, nor renewed).
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local paused = tonumber(redis.call('GET', KEYS[3]) or '0')
if paused > now then return paused - now end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local limit = tonumber(ARGV[3])
if limit > 0 and redis.call('ZCARD', KEYS[1]) >= limit then return -1 end
local perMinute = tonumber(ARGV[4])
if perMinute > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
  if redis.call('ZCARD', KEYS[2]) >= perMinute then
    local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
    return math.max(1, tonumber(oldest[2]) + 60000 - now)
  end
  redis.call('ZADD', KEYS[2], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[2], 61000)
end
if limit > 0 then redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1]) end
return 0
`;

// KEYS: leases. ARGV: token, leaseMs. Extends a lease still held.
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
`;

// KEYS: pause. ARGV: ms. Pauses until now + ms, never shortening a longer pause.
const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = now + tonumber(ARGV[1])
local paused = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMs > paused then redis.call('SET', KEYS[1], untilMs, 'PX', tonumber(ARGV[1])) end
return 0
`;

export function redisGate(redis: Redis, prefix: string, limits: GateLimits, leaseMs = LEASE_MS): ModelGate {
  const keys = [`${prefix}:gate:leases`, `${prefix}:gate:starts`, `${prefix}:gate:pause`];
  return {
    async acquire(signal) {
      const token = randomUUID();
      for (;;) {
        if (signal.aborted) throw new Error('Stopped while waiting for the model gate.');
        const wait = Number(await redis.eval(ACQUIRE, 3, ...keys, token, leaseMs, limits.concurrency, limits.perMinute));
        if (wait === 0) break;
        await sleep(wait < 0 ? POLL_MS + Math.random() * POLL_MS : wait, signal);
      }
      return limits.concurrency > 0 ? lease(redis, keys[0]!, token, leaseMs) : NO_LEASE;
    },
    async pause(ms) {
      await redis.eval(PAUSE, 1, keys[2]!, Math.max(1, Math.round(ms)));
    },
  };
}

const NO_LEASE: GateLease = { release: async () => undefined };

function lease(redis: Redis, key: string, token: string, leaseMs: number): GateLease {
  const renew = setInterval(() => void redis.eval(RENEW, 1, key, token, leaseMs).catch(() => undefined), leaseMs / 3);
  renew.unref();
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(renew);
      await redis.zrem(key, token).catch(() => undefined);
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
