// Routes a raw message from the webview to one typed handler per message type. Malformed or
// unknown messages are dropped and logged by the protocol parser, never thrown.
import { parseWebviewMessage, type ProtocolLog, type WebviewMessage } from '../../protocol/index.js';

export type WebviewMessageHandlers = {
  [K in WebviewMessage['type']]?: (message: Extract<WebviewMessage, { type: K }>) => void | Promise<void>;
};

/** Returns the parsed message (undefined when dropped). Handler errors are logged, not thrown. */
export function dispatchWebviewMessage(
  raw: unknown,
  handlers: WebviewMessageHandlers,
  log: ProtocolLog = (m) => console.warn(m),
): WebviewMessage | undefined {
  const message = parseWebviewMessage(raw, log);
  if (!message) return undefined;
  const handler = handlers[message.type] as ((m: WebviewMessage) => void | Promise<void>) | undefined;
  if (!handler) {
    log(`[keel] no handler for ${message.type}`);
    return message;
  }
  try {
    const result = handler(message);
    if (result instanceof Promise) result.catch((err: unknown) => log(`[keel] ${message.type} failed: ${String(err)}`));
  } catch (err) {
    log(`[keel] ${message.type} failed: ${String(err)}`);
  }
  return message;
}
