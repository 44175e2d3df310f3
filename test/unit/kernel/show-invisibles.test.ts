// showInvisibles: what a person approves must read exactly as what runs — no control
// character, bidi override or invisible space may hide, reorder or draw over part of it.
import assert from 'node:assert/strict';
import { showInvisibles } from '../../../src/kernel/index.js';

describe('showInvisibles', () => {
  it('leaves ordinary text alone, non-ASCII letters and emoji included', () => {
    for (const text of ['npm test -- --grep "a b"', "echo 'héllo wörld' | grep 日本語", 'git log -n 3 🦀', '']) {
      assert.equal(showInvisibles(text), text);
    }
  });

  it('marks controls: tab, line breaks, carriage return, escape sequences, DEL and C1', () => {
    assert.equal(showInvisibles('ls\trm -rf ~\r\nok'), 'ls⟨TAB⟩rm -rf ~⟨CR⟩⟨LF⟩ok');
    assert.equal(showInvisibles('safe\x1b[2K\x1b[1Gevil'), 'safe⟨ESC⟩[2K⟨ESC⟩[1Gevil');
    assert.equal(showInvisibles('a\x00b\x7fc\x9bd'), 'a⟨U+0000⟩b⟨U+007F⟩c⟨U+009B⟩d');
  });

  it('marks bidi overrides, isolates and marks, so text cannot be shown reversed', () => {
    // "cat ‮txt.exe" would display as "cat exe.txt".
    assert.equal(showInvisibles('cat \u202etxt.exe'), 'cat ⟨U+202E⟩txt.exe');
    for (const c of ['\u202a', '\u202b', '\u202c', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c']) {
      const code = c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      assert.equal(showInvisibles(`x${c}y`), `x⟨U+${code}⟩y`);
    }
  });

  it('marks invisible and look-alike spaces, the soft hyphen and tag characters', () => {
    assert.equal(showInvisibles('rm\u00a0-rf'), 'rm⟨NBSP⟩-rf');
    assert.equal(showInvisibles('a\u200bb\u2060c\ufeffd\u00ade'), 'a⟨U+200B⟩b⟨U+2060⟩c⟨U+FEFF⟩d⟨U+00AD⟩e');
    assert.equal(showInvisibles('a\u2028b\u3000c\u202fd'), 'a⟨U+2028⟩b⟨U+3000⟩c⟨U+202F⟩d');
    assert.equal(showInvisibles('ok\u{e0041}\u{e0042}'), 'ok⟨U+E0041⟩⟨U+E0042⟩');
  });
});
