// Keel's Output channel, with secrets removed from every line before it is written: the keys
// Keel holds and whatever the one secret detector finds (see kernel/redact.ts and
// compose/secrets), and a line repeated right after itself written once with a count. Every
// part of the extension logs through this, never through the raw channel.
import type * as vscode from 'vscode';
import { secretDetector } from '../compose/index.js';
import { redactSecrets } from '../kernel/redact.js';

export interface KeelLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, detail?: string): void;
  /** Reveals the Output channel (keeping focus where it is). */
  show(): void;
}

export function redactingLog(channel: vscode.LogOutputChannel, secrets: () => readonly string[]): KeelLog {
  const clean = (text: string) => redactSecrets(text, secrets(), secretDetector());
  const once = repeatsFolded(channel);
  return {
    info: (m) => once('info', clean(m), () => channel.info(clean(m))),
    warn: (m) => once('warn', clean(m), () => channel.warn(clean(m))),
    error: (m, detail) =>
      once('error', clean(m) + (detail ?? ''), () =>
        detail === undefined ? channel.error(clean(m)) : channel.error(clean(m), clean(detail)),
      ),
    show: () => {
      once('flush', '', () => {});
      channel.show(true);
    },
  };
}

/**
 * The same line again right after itself (a failure told by each path that saw it, a retry loop)
 * is written once: the next different line, or Show Log, first says how many more times it came.
 */
function repeatsFolded(channel: vscode.LogOutputChannel) {
  let last: string | undefined;
  let repeats = 0;
  return (level: string, text: string, write: () => void): void => {
    const key = `${level}\u0000${text}`;
    if (key === last && level !== 'flush') {
      repeats++;
      return;
    }
    if (repeats > 0) channel.info(`(the line above came ${repeats} more time${repeats === 1 ? '' : 's'})`);
    [last, repeats] = [level === 'flush' ? last : key, 0];
    write();
  };
}
