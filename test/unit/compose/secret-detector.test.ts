// The one secret detector (secretlint's recommended preset plus Keel's additions) on a corpus of
// fake credentials in real formats and on text that only looks near one: every credential is
// found and its secret part redacted; nothing innocent is flagged.
import assert from 'node:assert/strict';
import type { SecretLintRuleCreator } from '@secretlint/types';
import { secretDetector } from '../../../src/compose/index.js';
import { createSecretDetector } from '../../../src/compose/secrets/detector.js';
import { SecretlintRules } from '../../../src/compose/secrets/secretlint-rules.js';
import { REDACTED, redactSecrets } from '../../../src/kernel/index.js';
import { innocentCorpus, secretCorpus } from '../../support/secret-corpus.js';

describe('compose/secrets: the detector on the corpus', () => {
  const detector = secretDetector();

  it('has 50+ fake credentials in real formats, each distinct', () => {
    const corpus = secretCorpus();
    assert.ok(corpus.length >= 50, `${corpus.length}`);
    assert.equal(new Set(corpus.map((s) => s.name)).size, corpus.length);
    for (const s of corpus) assert.ok(s.text.includes(s.secret), s.name);
  });

  for (const sample of secretCorpus()) {
    it(`finds and redacts: ${sample.name}`, () => {
      assert.ok(detector.find(sample.text).length > 0, 'found');
      const out = redactSecrets(sample.text, [], detector);
      assert.ok(!out.includes(sample.secret), out);
      assert.ok(out.includes(REDACTED), out);
    });
  }

  it('flags nothing in the innocent corpus (code, hashes, ids, base64 of prose)', () => {
    const flagged = innocentCorpus().filter((t) => detector.find(t).length > 0);
    assert.deepEqual(flagged, []);
  });

  it('runs the maintained preset: its scanner rules are the ones in use', () => {
    const ids = new SecretlintRules().ids;
    assert.ok(ids.length >= 20, ids.join());
    for (const id of ['aws', 'gcp', 'privatekey', 'slack', 'github', 'npm', 'database-connection-string'])
      assert.ok(ids.includes(`@secretlint/secretlint-rule-${id}`), id);
    assert.ok(!ids.includes('@secretlint/secretlint-rule-filter-comments'), 'no rule that switches others off');
  });

  it('a secretlint-disable comment in hostile text hides nothing', () => {
    const token = secretCorpus().find((s) => s.name === 'Slack bot token')!.secret;
    for (const text of [`// secretlint-disable\n${token}\n// secretlint-enable`, `${token} // secretlint-disable-line`])
      assert.ok(!redactSecrets(text, [], detector).includes(token), text);
  });

  it('a rule that throws marks the whole text: it could not tell', () => {
    const broken = {
      messages: {},
      meta: { id: 'broken', type: 'scanner', recommended: true, supportedContentTypes: ['text'] },
      create: () => ({
        file() {
          throw new Error('boom');
        },
      }),
    } as SecretLintRuleCreator<object>;
    const found = createSecretDetector(new SecretlintRules([broken]), []).find('anything at all');
    assert.deepEqual(
      found.map((f) => [f.start, f.end]),
      [[0, 15]],
    );
  });

  it('judges a variable by its name and by its value', () => {
    const slack = secretCorpus().find((s) => s.name === 'Slack bot token')!.secret;
    const withheld: [string, string][] = [
      ['GITHUB_TOKEN', 'x'],
      ['AWS_SECRET_ACCESS_KEY', 'abc'],
      ['NPM_TOKEN', 'npm_whatever'],
      ['STRIPE_KEY', 'k'],
      ['DB_PASS', 'p'],
      ['clientSecret', 'v'],
      ['NOTIFY_WITH', slack],
      ['DATABASE_URL', 'postgres://app:s3cretPass@db.internal:5432/app'],
    ];
    const kept: [string, string][] = [
      ['PATH', '/usr/local/bin:/usr/bin:/bin'],
      ['HOME', '/home/ada'],
      ['PWD', '/work/project'],
      ['OLDPWD', '/work'],
      ['TOKENIZERS_PARALLELISM', 'false'],
      ['PASSWORD_STORE_DIR', '/home/ada/.password-store'],
      ['SSH_AUTH_SOCK', '/tmp/ssh-abc/agent.12'],
      ['LS_COLORS', 'rs=0:di=01;34:ln=01;36:mh=00:pi=40;33'],
      ['GITHUB_TOKEN', ''],
      ['KEYBOARD_LAYOUT', 'us'],
    ];
    for (const [name, value] of withheld) assert.ok(detector.inVariable(name, value), `${name} is withheld`);
    for (const [name, value] of kept) assert.equal(detector.inVariable(name, value), undefined, `${name} is kept`);
  });
});
