// The edits issue 23 found silently wrong, each now a right edit or a refusal: line numbers
// taken off a replace that only looked numbered, a BOM written twice, a UTF-8 file with a stray
// Windows-1252 byte re-encoded as Latin-1, tabs and spaces mixed, a block whose relative
// indentation differs from the file's accepted.
import assert from 'node:assert/strict';
import { planEdit } from '../../../src/tools/edit/plan-edit.js';

const enc = new TextEncoder();
const dec = new TextDecoder();
const applied = (r: ReturnType<typeof planEdit>): string => {
  if (!r.ok) assert.fail(r.message);
  return dec.decode(r.newBytes);
};

describe('edits that never corrupt a file', () => {
  describe('line numbers', () => {
    it('keeps a replace whose lines look like "1 | text" when the search carried no numbers', () => {
      // The search matches only after forgiving indentation: the tolerant path runs.
      const got = applied(planEdit(enc.encode('rows:\n  old\nend\n'), [{ search: 'old  ', replace: '1 | first\n2 | second' }]));
      assert.equal(got, 'rows:\n  1 | first\n  2 | second\nend\n');
    });

    it('keeps "1\\tAlice" rows of a replace', () => {
      const got = applied(planEdit(enc.encode('id\tname\n  rows\n'), [{ search: 'rows  ', replace: '1\tAlice\n2\tBob' }]));
      assert.equal(got, 'id\tname\n  1\tAlice\n  2\tBob\n');
    });

    it("still takes read_file's numbering off a search and its replace", () => {
      const file = 'a\nb\nc\n';
      const got = applied(planEdit(enc.encode(file), [{ search: '2 | b\n3 | c', replace: '2 | B\n3 | c' }]));
      assert.equal(got, 'a\nB\nc\n');
    });

    it('treats numbers that do not count up by one as text, not as read_file numbering', () => {
      const r = planEdit(enc.encode('x\n'), [{ search: '7 | x\n3 | y', replace: 'z' }]);
      assert.equal(r.ok, false);
    });
  });

  describe('the byte order mark', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const withBom = (s: string) => new Uint8Array([...bom, ...enc.encode(s)]);

    it('writes one BOM when the search starts with the BOM character', () => {
      const r = planEdit(withBom('import a\nrest\n'), [{ search: '\uFEFFimport a', replace: '\uFEFFimport b' }]);
      if (!r.ok) assert.fail(r.message);
      assert.deepEqual([...r.newBytes], [...withBom('import b\nrest\n')]);
    });

    it('never adds a BOM character inside a file that has none', () => {
      const r = planEdit(enc.encode('import a\n'), [{ search: '\uFEFFimport a', replace: '\uFEFFimport b' }]);
      assert.equal(applied(r), 'import b\n');
    });
  });

  describe('encodings', () => {
    // "naïve — " in UTF-8, then 0x93 (a Windows-1252 left quote) on its own.
    const mixed = new Uint8Array([...enc.encode('naïve — x\n'), 0x93, ...enc.encode('quoted\nold\n')]);

    it('refuses to edit a UTF-8 file holding a stray Windows-1252 byte, naming the byte', () => {
      const r = planEdit(mixed, [{ search: 'old', replace: 'néw' }], 'notes.txt');
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.reason, 'mixed_encoding');
      assert.match(r.message, /notes\.txt is not in one encoding.*offset 13/);
    });

    it('still edits a Latin-1 file with Latin-1 characters', () => {
      const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6c, 0x64, 0x0a]); // "café\nold\n"
      const r = planEdit(latin1, [{ search: 'old', replace: 'né' }]);
      if (!r.ok) assert.fail(r.message);
      assert.deepEqual([...r.newBytes], [0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6e, 0xe9, 0x0a]);
    });

    it('keeps the odd last byte of a UTF-16 file', () => {
      const text = 'ab\ncd\n';
      const bytes = new Uint8Array(2 + text.length * 2 + 1);
      bytes.set([0xff, 0xfe]);
      for (let i = 0; i < text.length; i++) bytes[2 + i * 2] = text.charCodeAt(i);
      bytes[bytes.length - 1] = 0x41;
      const r = planEdit(bytes, [{ search: 'cd', replace: 'xy' }]);
      if (!r.ok) assert.fail(r.message);
      assert.equal(r.newBytes[r.newBytes.length - 1], 0x41);
      assert.equal(r.newBytes.length, bytes.length);
    });
  });

  describe('indentation', () => {
    const tabbed = 'def run(items):\n\tfor item in items:\n\t\tif item:\n\t\t\tgo(item)\n\treturn None\n';

    it("re-indents a space-indented replace to a tab-indented file's tabs", () => {
      const got = applied(
        planEdit(enc.encode(tabbed), [
          {
            search: '    for item in items:\n        if item:\n            go(item)',
            replace: '    for item in items:\n        if item:\n            go(item)\n        else:\n            stop(item)',
          },
        ]),
      );
      assert.equal(
        got,
        'def run(items):\n\tfor item in items:\n\t\tif item:\n\t\t\tgo(item)\n\t\telse:\n\t\t\tstop(item)\n\treturn None\n',
      );
    });

    it("re-indents a two-space replace to a four-space file's width", () => {
      const file = 'class A:\n    def f(self):\n        if x:\n            y()\n';
      const got = applied(
        planEdit(enc.encode(file), [{ search: 'def f(self):\n  if x:\n    y()', replace: 'def f(self):\n  if x:\n    y()\n  z()' }]),
      );
      assert.equal(got, 'class A:\n    def f(self):\n        if x:\n            y()\n        z()\n');
    });

    it('refuses a search whose relative indentation differs from the file', () => {
      const file = 'if a:\n    x = 1\ny = 2\n';
      const r = planEdit(enc.encode(file), [{ search: 'if a:\nx = 1\ny = 2', replace: 'if a:\nx = 3\ny = 2' }], 'm.py');
      assert.equal(r.ok, false);
      if (r.ok) return;
      assert.equal(r.reason, 'indentation');
      assert.match(r.message, /line 1 of m\.py.*indented differently/);
    });

    it('refuses a tab-indented search that nests differently from a space-indented file', () => {
      const file = 'a:\n    b:\n        c\n';
      const r = planEdit(enc.encode(file), [{ search: 'a:\n\tb:\n\tc', replace: 'a:\n\tb:\n\td' }]);
      assert.equal(r.ok || r.reason, 'indentation');
    });
  });
});
