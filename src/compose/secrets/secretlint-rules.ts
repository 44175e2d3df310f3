// The maintained half of Keel's secret detection: secretlint's recommended preset (the rule set
// `vsce` itself scans extensions with), run synchronously over one text. Keel calls each
// scanner rule's documented `create(context).file(source)` itself instead of going through
// @secretlint/core, whose lint is asynchronous: redaction happens as an event is appended, and
// a command's environment is computed while it is spawned, so both need an answer now.
//
// Hostile text must not be able to switch a rule off: `ignore` reports (the secretlint-disable
// comment filter) are dropped, and no file path is given, so no rule reads a file.
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintRuleContext, SecretLintRuleCreator, SecretLintSourceCode } from '@secretlint/types';
import type { SecretFinding } from '../../kernel/index.js';

/** Rules of the preset that only filter other rules' reports: of no use here, and skipped. */
const FILTER_RULES = new Set(['@secretlint/secretlint-rule-filter-comments']);

/** Options per rule: AWS access key ids are off by default in secretlint; Keel wants them too. */
const RULE_OPTIONS: Readonly<Record<string, object>> = { '@secretlint/secretlint-rule-aws': { enableIDScanRule: true } };

/** What each rule finds, for people (the rule's own messages quote the secret, so they are not used). */
const KINDS: Readonly<Record<string, string>> = {
  aws: 'an AWS credential',
  gcp: 'a Google Cloud service account key',
  privatekey: 'a private key',
  npm: 'an npm token',
  basicauth: 'a password in a URL',
  slack: 'a Slack token',
  sendgrid: 'a SendGrid key',
  shopify: 'a Shopify token',
  github: 'a GitHub token',
  gitlab: 'a GitLab token',
  grafana: 'a Grafana token',
  openai: 'an OpenAI key',
  anthropic: 'an Anthropic key',
  groq: 'a Groq key',
  huggingface: 'a Hugging Face token',
  linear: 'a Linear key',
  notion: 'a Notion token',
  '1password': 'a 1Password service account token',
  'database-connection-string': 'a database password',
  'hashicorp-vault': 'a HashiCorp Vault token',
  vercel: 'a Vercel token',
  databricks: 'a Databricks token',
  docker: 'a Docker token',
  figma: 'a Figma token',
};

/** A span a rule reported, before spans of all rules are merged. */
type Span = SecretFinding;

interface LoadedRule {
  id: string;
  kind: string;
  handler: { file?(source: SecretLintSourceCode): unknown };
}

/** The preset's scanner rules, each created once with a context that reports into `sink`. */
export class SecretlintRules {
  private sink: Span[] = [];
  private readonly loaded: LoadedRule[];

  constructor(creators: readonly SecretLintRuleCreator<object>[] = presetRules as readonly SecretLintRuleCreator<object>[]) {
    this.loaded = creators.filter((c) => c.meta.type === 'scanner' && !FILTER_RULES.has(c.meta.id)).map((c) => this.load(c));
  }

  /** The rule ids in use (the preset's scanners), for reports and tests. */
  get ids(): string[] {
    return this.loaded.map((r) => r.id);
  }

  /** Every span any rule reports in the text. A rule that throws reports the whole text: it could not tell. */
  scan(text: string): Span[] {
    const source = textSource(text);
    const found: Span[] = [];
    for (const rule of this.loaded) {
      this.sink = [];
      try {
        const pending = rule.handler.file?.(source);
        // Only file-reading checks are asynchronous, and no file path is given: nothing to wait for.
        if (pending instanceof Promise) pending.catch(() => undefined);
        found.push(...this.sink);
      } catch {
        found.push({ start: 0, end: text.length, kind: 'text a secret rule could not check', rule: rule.id });
      }
    }
    this.sink = [];
    return found;
  }

  private load(creator: SecretLintRuleCreator<object>): LoadedRule {
    const id = creator.meta.id;
    const kind = KINDS[id.replace('@secretlint/secretlint-rule-', '')] ?? 'a credential';
    const context: SecretLintRuleContext = {
      sharedOptions: {},
      createTranslator: () => (() => ({ message: '', messageId: '', data: {} })) as never,
      report: (d) => this.sink.push({ start: d.range[0], end: d.range[1], kind, rule: id }),
      ignore: () => undefined,
    };
    return { id, kind, handler: creator.create(context, RULE_OPTIONS[id] ?? {}) };
  }
}

/**
 * The text as secretlint's rules read a source: no file path (so no rule opens a file), and the
 * `.json` extension so the service-account rule parses a pasted key file (other text fails its
 * JSON.parse at once and is skipped).
 */
function textSource(content: string): SecretLintSourceCode {
  const unsupported = (): never => {
    throw new Error('positions are not supported');
  };
  return {
    hasBOM: false,
    content,
    filePath: undefined,
    physicalFilePath: undefined,
    contentType: 'text',
    ext: '.json',
    getFilePath: () => undefined,
    getPhysicalFilePath: () => undefined,
    locationToRange: unsupported,
    rangeToLocation: unsupported,
    positionToIndex: unsupported,
    indexToPosition: unsupported,
  };
}
