// Secrets out of error text: the API keys the host holds, the values of Authorization and
// x-api-key headers, and anything shaped like a provider key are replaced before an error
// message becomes an event, a log line, a notification or view text. Pure; applied by the
// providers when they classify a failure, by the runtime to every error event it logs (the
// last line of defence) and by the extension to its log and notifications.
import type { RuntimeEventInput } from './contracts/events.js';

export const REDACTED = '[redacted]';

/** Key shapes of the model vendors (Anthropic, OpenAI incl. project keys, Google, xAI, Groq). */
const KEY_SHAPES = /\b(?:sk-[A-Za-z0-9_-]{8,}|AIza[A-Za-z0-9_-]{20,}|xai-[A-Za-z0-9_-]{16,}|gsk_[A-Za-z0-9_-]{16,})/g;
/** `Bearer <token>` anywhere (an Authorization value copied into a message). */
const BEARER = /\b(Bearer\s+)(?!\[redacted\])[^\s"'`,;)\]}]+/gi;
/** `authorization: …`, `"x-api-key": "…"`, `api_key=…`: the value after the name, its scheme word included. */
const NAMED =
  /\b(authorization|x-api-key|api[-_]?key)(["']?\s*[:=]\s*["']?)(?:(?:Bearer|Basic|Token|Digest)\s+)?(?!\[redacted\])[^\s"'`,;)\]}]+/gi;

/** A known secret is also redacted piecewise: a key with a line break may be quoted in parts. */
const MIN_PIECE = 4;

export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  let out = text;
  for (const secret of knownSecrets) out = redactKnown(out, secret);
  return out.replace(KEY_SHAPES, REDACTED).replace(NAMED, `$1$2${REDACTED}`).replace(BEARER, `$1${REDACTED}`);
}

function redactKnown(text: string, secret: string): string {
  if (secret.length < MIN_PIECE) return text;
  let out = text;
  const forms = [secret, JSON.stringify(secret).slice(1, -1), ...secret.split(/[^\x21-\x7e]+/)];
  for (const form of forms) if (form.length >= MIN_PIECE) out = out.split(form).join(REDACTED);
  return out;
}

/**
 * The event with secrets removed from its error text: model errors, retries, failed runs and
 * failed tool calls. Other events are returned as they are (the hot path pays one switch).
 */
export function redactEvent(input: RuntimeEventInput, knownSecrets: () => readonly string[] = () => []): RuntimeEventInput {
  const r = (text: string) => redactSecrets(text, knownSecrets());
  switch (input.type) {
    case 'model_error':
    case 'turn_retry':
      return { ...input, error: { ...input.error, message: r(input.error.message) } };
    case 'run_failed':
      return { ...input, error: { ...input.error, message: r(input.error.message) } };
    case 'observation': {
      const o = input.observation;
      if (o.ok) return input;
      return { ...input, observation: { ...o, content: r(o.content), ...(o.summary === undefined ? {} : { summary: r(o.summary) }) } };
    }
    default:
      return input;
  }
}
