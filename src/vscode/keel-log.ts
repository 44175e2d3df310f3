// Keel's Output channel, with secrets removed from every line before it is written: the keys
// Keel holds and whatever the one secret detector finds (see kernel/redact.ts and
// compose/secrets). Every part of the extension logs through this, never through the raw channel.
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
  return {
    info: (m) => channel.info(clean(m)),
    warn: (m) => channel.warn(clean(m)),
    error: (m, detail) => (detail === undefined ? channel.error(clean(m)) : channel.error(clean(m), clean(detail))),
    show: () => channel.show(true),
  };
}
