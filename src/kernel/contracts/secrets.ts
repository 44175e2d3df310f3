// Secrets: where a text holds a credential. The kernel only asks; the rule set that answers
// (a maintained library plus Keel's few additions) lives outside it and is injected, so every
// check — the log's redaction, memory's refusal, the commands' environment — uses one source.

/** One credential found in a text: its span, and what it is for people ("a Slack token"). */
export interface SecretFinding {
  start: number;
  end: number;
  /** What was found, as a noun phrase that never quotes the secret. */
  kind: string;
  /** The rule that found it (a secretlint rule id or a Keel rule id). */
  rule: string;
}

export interface SecretDetector {
  /** Every credential in the text, in order of position, spans never overlapping. */
  find(text: string): SecretFinding[];
  /**
   * Why an environment variable with this name and value hands over a credential (its name
   * says so, or its value holds one), or undefined.
   */
  inVariable(name: string, value: string): SecretFinding | undefined;
}
