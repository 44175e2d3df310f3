// The seal of a task log: an HMAC-SHA256 chain with a key kept in the user's config folder
// (`$XDG_CONFIG_HOME/keel/log.key`, made on first use, readable by the user alone). The header
// carries a fresh nonce and the key's id; each line after it carries the MAC of its own bytes and
// the MAC of the line before. A log whose chain verifies was written, line for line, by a Keel
// holding this user's key: `keel resume` continues only such a log, because its header and its
// "for this task" approvals would act with the user's authority. A sandboxed command cannot read
// the key (the sandbox shows an empty home), so a test run that rewrites a log in the workspace
// breaks its seal. A sealed log may still be cut short (every prefix verifies); it cannot be
// changed, reordered or spliced from another log.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { keelConfigDir } from './config-folder.js';

/** The key a host seals and checks logs with, and where it is kept (named in errors). */
export interface LogSealKey {
  readonly file: string;
  readonly bytes: Buffer;
  /** A short, public id of the key: a log names the key it was sealed with. */
  readonly id: string;
}

/** What a header records about its seal. */
export interface HeaderSeal {
  nonce: string;
  key: string;
}

const KEY_FILE = 'log.key';
const MAC_FIELD = /,"mac":"([0-9a-f]{64})"\}$/;

/** Where the user's log key is kept. */
export function logKeyFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(keelConfigDir(env), KEY_FILE);
}

/** The user's log key, made (0600, in a 0700 folder) when there is none yet. Throws when it cannot be read or made. */
export function userLogKey(env: NodeJS.ProcessEnv = process.env): LogSealKey {
  const file = logKeyFile(env);
  const existing = readKey(file);
  if (existing) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temp, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    // link() never replaces: of two Keels making the key at once, one key wins and both use it.
    fs.linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  const made = readKey(file);
  if (!made) throw new Error(`The log key at ${file} could not be read back.`);
  return made;
}

/** The user's log key when there is one; never makes it (checking a log needs no new key). */
export function existingLogKey(env: NodeJS.ProcessEnv = process.env): LogSealKey | undefined {
  return readKey(logKeyFile(env));
}

function readKey(file: string): LogSealKey | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`The log key at ${file} is damaged: remove it (logs it sealed then no longer resume).`);
  const bytes = Buffer.from(text, 'hex');
  return { file, bytes, id: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
}

/** A new header's seal: a nonce of its own, so no two logs share a chain. */
export function newHeaderSeal(key: LogSealKey): HeaderSeal {
  return { nonce: randomBytes(16).toString('hex'), key: key.id };
}

/** The MAC of one line's bytes (without its MAC field) after the MAC of the line before ('' for the header). */
export function lineMac(key: LogSealKey, previous: string, body: string): string {
  return createHmac('sha256', key.bytes).update(previous).update('\n').update(body).digest('hex');
}

/** A JSON object's text with its MAC as the last field. */
export function sealedLine(body: string, mac: string): string {
  return `${body.slice(0, -1)},"mac":"${mac}"}`;
}

/** A line split into the bytes its MAC covers and the MAC, or undefined when it carries none. */
export function splitSealedLine(line: string): { body: string; mac: string } | undefined {
  const m = MAC_FIELD.exec(line);
  if (!m) return undefined;
  return { body: `${line.slice(0, m.index)}}`, mac: m[1]! };
}

/** Constant-time comparison of two hex MACs. */
export function sameMac(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
