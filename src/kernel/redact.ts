// Secrets out of text: the keys the host holds (whole, escaped, or quoted in pieces) and
// whatever the injected SecretDetector finds are replaced before an error message or a tool's
// output becomes an event, a log line, the model's next request, a notification or view text.
// Pure; applied by the providers to the key they send, by the runtime to every error event and
// observation it logs (the last line of defence) and by the hosts to their logs, notifications
// and error output. The patterns themselves live behind the port
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
 * The event with secrets removed from what the model and the log would read of it: error text
 * (model errors, retries, failed runs) and every tool's observation, failed or not — its content,
 * its summary and the strings of its data (a remote URL in `git remote -v`, an .npmrc read, a
 * diff of a config) — and the repo map (a definition's first line may hold a key). Other events
 * are returned as they are: the hot path (one call per streamed delta) pays one switch and
 * allocates nothing — no closure is made until there is text to redact.
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
      const secrets = knownSecrets?.();
      const r = (text: string) => redactSecrets(text, secrets, detector);
      const redacted = { ...o, content: r(o.content), ...(o.summary === undefined ? {} : { summary: r(o.summary) }) };
      if (o.data !== undefined) redacted.data = redactStrings(o.data, r);
      return { ...input, observation: redacted };
    }
    case 'repo_map_built':
      return input.text === '' ? input : { ...input, text: redactSecrets(input.text, knownSecrets?.(), detector) };
    default:
      return input;
  }
}

/** Every string in a JSON value passed through `r` (data is JSON: it goes to the log as such). */
function redactStrings(value: unknown, r: (text: string) => string): unknown {
  if (typeof value === 'string') return r(value);
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, r));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, r)]));
}
