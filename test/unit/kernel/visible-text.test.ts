import assert from 'node:assert/strict';
import { hasHiddenCharacters, visibleText } from '../../../src/kernel/index.js';

describe('kernel/visible-text: nothing hidden in what a person approves', () => {
  it('shows control characters as control pictures, a line break as ␊ and a break', () => {
    assert.equal(visibleText('echo hi\u001b[2K\rrm -rf ~'), 'echo hi␛[2K␍rm -rf ~');
    assert.equal(visibleText('a\tb\u0000c\u007f'), 'a␉b␀c␡');
    assert.equal(visibleText('ls\ncurl x'), 'ls␊\ncurl x');
    assert.equal(visibleText('x\u0085y'), 'x⟨U+0085⟩y');
  });

  it('marks bidi overrides and isolates, zero-width characters and look-alike spaces', () => {
    const shown = visibleText('cat safe\u202e.txt\u202c \u2066x\u2069 a\u200bb c\u00a0d e\u202ff \ufeffg');
    assert.equal(shown, 'cat safe⟨U+202E⟩.txt⟨U+202C⟩ ⟨U+2066⟩x⟨U+2069⟩ a⟨U+200B⟩b c⟨U+00A0⟩d e⟨U+202F⟩f ⟨U+FEFF⟩g');
    for (const ch of ['\u202a', '\u202b', '\u202d', '\u2067', '\u2068', '\u200c', '\u200d', '\u2060', '\u200e', '\u061c', '\u3000'])
      assert.match(visibleText(`a${ch}b`), /^a⟨U\+[0-9A-F]{4}⟩b$/, ch.codePointAt(0)!.toString(16));
    assert.equal(visibleText('tag\u{E0041}'), 'tag⟨U+E0041⟩');
  });

  it('leaves ordinary text, including non-Latin scripts and emoji, as it is', () => {
    for (const text of ['npm test -- --grep "price"', 'cat src/überblick.md', 'echo 日本語 🚀', 'path/with spaces/file.ts'])
      assert.equal(visibleText(text), text);
    assert.equal(hasHiddenCharacters('npm test'), false);
    assert.equal(hasHiddenCharacters('npm\u00a0test'), true);
    assert.equal(hasHiddenCharacters('npm\u00a0test'), true, 'repeatable (no regex state carried over)');
  });
});
