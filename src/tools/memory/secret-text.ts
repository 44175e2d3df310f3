// What a memory must never hold: text shaped like a credential. Provider keys and auth headers
// are recognised by the kernel's redaction rules (one source for key shapes); private key
// blocks, password assignments and a few common token shapes are added here.
import { redactSecrets } from '../../kernel/index.js';

const SHAPES: readonly { what: string; pattern: RegExp }[] = [
  { what: 'a private key block', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/ },
  { what: 'a password', pattern: /\b(?:password|passwd|pwd)\s*[:=]/i },
  { what: 'a secret or token assignment', pattern: /\b(?:secret|token|client_secret|access_token)\s*[:=]\s*\S{8,}/i },
  { what: 'an AWS access key', pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/ },
  { what: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/ },
];

/** What secret the text seems to hold, or undefined when it looks clean. */
export function secretInText(text: string): string | undefined {
  if (redactSecrets(text) !== text) return 'an API key or authorization value';
  return SHAPES.find((s) => s.pattern.test(text))?.what;
}
