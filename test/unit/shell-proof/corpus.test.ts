// The corpus of the differential proof: big enough, readable, and its generated half exactly
// what the committed generator makes (so anyone can see how it was made and remake it).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CORPUS_DIR, corpusLine, loadCorpus, parseCorpus } from '../../support/shell-proof/corpus.js';
import { generatedFileText, generateCorpus, SEED } from '../../support/shell-proof/generate-corpus.js';

describe('shell proof corpus', () => {
  it('holds at least 1,000 command lines, hand-written and generated', () => {
    const lines = loadCorpus();
    assert.ok(lines.length >= 1000, `${lines.length} lines`);
    assert.ok(lines.filter((l) => l.where.startsWith('adversarial.txt')).length >= 500);
    assert.ok(lines.filter((l) => l.where.startsWith('generated.txt')).length >= 500);
  });

  it('is the committed generator output, reproducibly', () => {
    const committed = fs.readFileSync(path.join(CORPUS_DIR, 'generated.txt'), 'utf8');
    assert.equal(committed, generatedFileText(), 'run: node --import=tsx test/support/shell-proof/generate-corpus.ts');
    assert.deepEqual(generateCorpus(SEED, 50), generateCorpus(SEED, 50));
    assert.notDeepEqual(generateCorpus(SEED, 50), generateCorpus(SEED + 1, 50));
  });

  it('carries lines with newlines and control characters through @json, and skips comments', () => {
    for (const text of ['ls\ntouch x', 'echo a\rb', '# not a comment', ' padded ', 'ls']) {
      assert.deepEqual(
        parseCorpus('t', `# comment\n\n${corpusLine(text)}\n`).map((l) => l.text),
        [text],
      );
    }
  });
});
