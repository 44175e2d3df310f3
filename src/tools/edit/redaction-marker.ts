// An edit must not write Keel's redaction marker over the secret it stands for. Tool output
// reaches the model with credentials replaced by [redacted] (kernel/redact.ts), so text the
// model writes back may carry the marker where the file holds the real value: writing it would
// lose the secret. A change that adds the marker to a file in which the detector finds a
// credential is refused, and the model told to edit around it. A new file, or one without a
// credential (a test of a redaction library), may hold the marker as ordinary text.
import { REDACTED, type SecretDetector, type ToolResult } from '../../kernel/index.js';
import { failure } from '../tool-result.js';

export function markerRefusal(
  rel: string,
  before: string | undefined,
  after: string,
  secrets: SecretDetector | undefined,
): ToolResult | undefined {
  if (before === undefined || count(after) <= count(before)) return undefined;
  // Without the detector nothing can be told: the marker may stand for a secret.
  if (secrets && secrets.find(before).length === 0) return undefined;
  return failure(
    'invalid_input',
    `${rel} holds a credential that was shown to you as ${REDACTED}; this change would write the marker in its place and lose the real value. Nothing was written. Change only the lines around it (edit_file with blocks that leave the ${REDACTED} lines out), or ask the user to make that change.`,
    { retryable: false, summary: `${rel}: would overwrite a hidden secret` },
  );
}

function count(text: string): number {
  return text.split(REDACTED).length - 1;
}
