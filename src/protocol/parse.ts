// Validation at both ends of the channel: an unknown or malformed message is dropped and
// logged, never thrown, so one bad message cannot take the view (or the host) down.
import * as z from 'zod/mini';
import { HostMessageSchema, type HostMessage } from './host-message.js';
import { TranscriptItemSchema, type TranscriptItem } from './transcript-item.js';
import { WebviewMessageSchema, type WebviewMessage } from './webview-message.js';

export type ProtocolLog = (message: string) => void;

const defaultLog: ProtocolLog = (message) => console.warn(message);

/** Enough of the payload to debug it, never a multi-megabyte snapshot. */
function preview(raw: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(raw) ?? String(raw);
  } catch {
    text = String(raw);
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function parseWith<T>(schema: z.ZodMiniType<T>, side: string, raw: unknown, log: ProtocolLog): T | undefined {
  const result = z.safeParse(schema, raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid';
  // zod's message may list every option of a union (every message type): capped like the payload.
  const said = where.length > 120 ? `${where.slice(0, 120)}…` : where;
  log(`[keel protocol] dropped ${side} message (${said}): ${preview(raw)}`);
  return undefined;
}

export function parseHostMessage(raw: unknown, log: ProtocolLog = defaultLog): HostMessage | undefined {
  return parseWith(HostMessageSchema, 'host→webview', raw, log);
}

export function parseWebviewMessage(raw: unknown, log: ProtocolLog = defaultLog): WebviewMessage | undefined {
  return parseWith(WebviewMessageSchema, 'webview→host', raw, log);
}

export function encodeSnapshotItems(items: readonly TranscriptItem[]): string {
  return JSON.stringify(items);
}

/** The snapshot's items, not yet validated (see `parseTranscriptItem`); [] if not a JSON array. */
export function decodeSnapshotItems(itemsJson: string, log: ProtocolLog = defaultLog): unknown[] {
  try {
    const items: unknown = JSON.parse(itemsJson);
    if (Array.isArray(items)) return items;
  } catch {
    // reported below
  }
  log(`[keel protocol] dropped snapshot items (not a JSON array): ${preview(itemsJson)}`);
  return [];
}

export function parseTranscriptItem(raw: unknown, log: ProtocolLog = defaultLog): TranscriptItem | undefined {
  return parseWith(TranscriptItemSchema, 'transcript item', raw, log);
}

/**
 * Lets the protocol run under a CSP without 'unsafe-eval': zod would otherwise probe
 * `new Function` (a CSP violation report in the webview) to compile faster parsers.
 */
export function configureProtocolForCsp(): void {
  z.config({ jitless: true });
}
