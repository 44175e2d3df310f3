// The one SecretDetector every host and check uses: secretlint's recommended preset (the
// maintained formats), then Keel's few additions (keel-rules.ts), then the same in base64 that
// decodes to text (encoded-secrets.ts). Spans of all rules are merged,
// so a secret two rules both see is redacted once, and a variable is judged by its name and by
// its `NAME=value` line, the form rules that read assignments expect.
import type { SecretDetector, SecretFinding } from '../../kernel/index.js';
import { namesCredential } from './credential-names.js';
import { encodedSecretSpans } from './encoded-secrets.js';
import { KEEL_RULES, type KeelRule } from './keel-rules.js';
import { SecretlintRules } from './secretlint-rules.js';

/** Characters of one token: a secretlint span is widened over them, since some rules report part of the match. */
const TOKEN_CHAR = /[A-Za-z0-9+/=_\-.~%]/;

export function createSecretDetector(preset = new SecretlintRules(), additions: readonly KeelRule[] = KEEL_RULES): SecretDetector {
  const find = (text: string, depth = 0): SecretFinding[] => {
    if (text.length === 0) return [];
    const spans = preset.scan(text).map((f) => widen(text, f));
    for (const rule of additions) for (const [start, end] of rule.spans(text)) spans.push({ start, end, kind: rule.kind, rule: rule.id });
    // Base64 that decodes to text holding a credential (a base64 deploy key), and base64 in that (a Kubernetes secret of one).
    if (depth < MAX_ENCODED_DEPTH)
      for (const [start, end] of encodedSecretSpans(text, (decoded) => find(decoded, depth + 1).length > 0))
        spans.push({ start, end, kind: 'a base64-encoded credential', rule: 'keel/base64' });
    return merge(spans.filter((s) => s.end > s.start));
  };
  // Every command judges the same environment again: remember the verdicts (a bounded memo).
  const verdicts = new Map<string, SecretFinding | undefined>();
  const judge = (name: string, value: string): SecretFinding | undefined => {
    if (value.trim() === '') return undefined;
    if (namesCredential(name, 'variable'))
      return { start: 0, end: value.length, kind: 'a variable named like a credential', rule: 'keel/credential-name' };
    const hit = find(`${name}=${value}`).find((f) => f.end > name.length + 1);
    return hit && { ...hit, start: Math.max(0, hit.start - name.length - 1), end: hit.end - name.length - 1 };
  };
  return {
    find,
    inVariable(name, value) {
      const key = `${name}\u0000${value}`;
      if (verdicts.has(key)) return verdicts.get(key);
      if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
      const verdict = judge(name, value);
      verdicts.set(key, verdict);
      return verdict;
    },
  };
}

/** Layers of base64 decoded at most. */
const MAX_ENCODED_DEPTH = 2;

/** Variables remembered at most: an environment has a few hundred; a test that varies values is bounded. */
const MAX_VERDICTS = 4096;

let shared: SecretDetector | undefined;

/** The detector with the preset loaded once per process (the rules are created on first use). */
export function secretDetector(): SecretDetector {
  shared ??= createSecretDetector();
  return shared;
}

function widen(text: string, f: SecretFinding): SecretFinding {
  let { start, end } = f;
  while (start > 0 && TOKEN_CHAR.test(text[start - 1]!)) start--;
  while (end < text.length && TOKEN_CHAR.test(text[end]!)) end++;
  return { ...f, start, end };
}

/** Ordered, disjoint spans: overlapping or touching ones become one, named by the earliest. */
function merge(spans: SecretFinding[]): SecretFinding[] {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretFinding[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}
