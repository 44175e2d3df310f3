// Secrets out of error text: the keys the host holds (whole, escaped, or quoted in pieces) and
// whatever the injected SecretDetector finds are replaced before an error message becomes an
// event, a log line, a notification or view text. Pure; applied by the providers to the key they
// send, by the runtime to every error event it logs (the last line of defence) and by the hosts
// to their logs, notifications and error output. The patterns themselves live behind the port
// (src/compose/secrets), never here: one rule set for every check.
import type { RuntimeEventInput } from './contracts/events.js';
import type { SecretDetector } from './contracts/secrets.js';

export const REDACTED = '[redacted]';

/** A known secret is also redacted piecewise: a key with a line break may be quoted in parts. */
const MIN_PIECE = 4;

export function redactSecrets(text: string, knownSecrets: readonly string[] = [], detector?: SecretDetector): string {
  let out = text;
  for (const secret of knownSecrets) out = redactKnown(out, secret);
  return detector ? redactFound(out, detector) : out;
}

function redactKnown(text: string, secret: string): string {
  if (secret.length < MIN_PIECE) return text;
  let out = text;
  const forms = [secret, JSON.stringify(secret).slice(1, -1), ...secret.split(/[^\x21-\x7e]+/)];
  for (const form of forms) if (form.length >= MIN_PIECE) out = out.split(form).join(REDACTED);
  return out;
}

/** Each span the detector reports becomes one marker (spans are ordered and disjoint). */
function redactFound(text: string, detector: SecretDetector): string {
  const found = detector.find(text);
  if (found.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const f of found) {
    if (f.start < at) continue;
    parts.push(text.slice(at, f.start), REDACTED);
    at = f.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/**
 * The event with secrets removed from its error text: model errors, retries, failed runs and
 * failed tool calls. Other events are returned as they are: the hot path (one call per streamed
 * delta) pays one switch and allocates nothing — no closure is made until there is text to redact.
 */
export function redactEvent(
  input: RuntimeEventInput,
  knownSecrets?: () => readonly string[],
  detector?: SecretDetector,
): RuntimeEventInput {
  switch (input.type) {
    case 'model_error':
    case 'turn_retry':
      return { ...input, error: { ...input.error, message: redactSecrets(input.error.message, knownSecrets?.(), detector) } };
    case 'run_failed':
      return { ...input, error: { ...input.error, message: redactSecrets(input.error.message, knownSecrets?.(), detector) } };
    case 'observation': {
      const o = input.observation;
      if (o.ok) return input;
      const secrets = knownSecrets?.();
      const r = (text: string) => redactSecrets(text, secrets, detector);
      return { ...input, observation: { ...o, content: r(o.content), ...(o.summary === undefined ? {} : { summary: r(o.summary) }) } };
    }
    default:
      return input;
  }
}
