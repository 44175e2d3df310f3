import assert from 'node:assert/strict';
import { planEdit } from '../../../src/tools/edit/plan-edit.js';
import { decodeText } from '../../../src/tools/text/encoding.js';

const enc = new TextEncoder();
const ok = (r: ReturnType<typeof planEdit>) => {
  if (!r.ok) assert.fail(r.message);
  return r;
};

describe('planEdit', () => {
  const src = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n';

  it('applies an exact block and produces a unified diff', () => {
    const r = ok(planEdit(src, [{ search: '  return 2;', replace: '  return 3;' }], 'x.ts'));
    assert.equal(r.newText, src.replace('return 2', 'return 3'));
    assert.match(r.diff, /^--- a\/x\.ts\n\+\+\+ b\/x\.ts\n@@ -3,5 \+3,5 @@/);
    assert.match(r.diff, /\n- {2}return 2;\n\+ {2}return 3;\n/);
    assert.equal(r.added, 1);
    assert.equal(r.removed, 1);
  });

  it('applies blocks given out of order, all against the original', () => {
    const r = ok(
      planEdit(src, [
        { search: 'return 2;', replace: 'return 20;' },
        { search: 'return 1;', replace: 'return 10;' },
      ]),
    );
    assert.equal(r.newText, 'function a() {\n  return 10;\n}\n\nfunction b() {\n  return 20;\n}\n');
  });

  it('forgives trailing whitespace and shifted indentation, re-indenting the replacement', () => {
    const r = ok(planEdit(src, [{ search: 'function b() {   \n  return 2;\n}', replace: 'function b() {\n  return 2 + 2;\n}' }]));
    assert.equal(r.tolerantBlocks, 1);
    assert.ok(r.newText.includes('function b() {\n  return 2 + 2;\n}'));
    const shifted = ok(
      planEdit('class A {\n    run() {\n        go();\n    }\n}\n', [
        { search: 'run() {\n    go();\n}', replace: 'run() {\n    go();\n    stop();\n}' },
      ]),
    );
    assert.equal(shifted.newText, 'class A {\n    run() {\n        go();\n        stop();\n    }\n}\n');
  });

  it('forgives line-number prefixes copied from read_file output', () => {
    const r = ok(planEdit(src, [{ search: '5 | function b() {\n6 |   return 2;', replace: 'function b() {\n  return 5;' }]));
    assert.ok(r.newText.includes('  return 5;\n}'));
  });

  it('fails the whole edit on a missing block, showing the closest candidate and its line', () => {
    const r = planEdit(src, [
      { search: 'return 1;', replace: 'return 10;' },
      { search: 'function c() {\n  return 2;', replace: 'x' },
    ]);
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.match(r.message, /Edit 2 of 2: the search text was not found/);
    assert.match(r.message, /closest text is at line 5/);
    assert.match(r.message, /5 \| function b\(\) \{/);
    assert.match(r.message, /No edit was applied/);
  });

  it('fails on an ambiguous block, naming the lines', () => {
    const r = planEdit('x = 1;\ny = 2;\nx = 1;\n', [{ search: 'x = 1;', replace: 'x = 3;' }]);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.message, /matches 2 places .*\(lines 1, 3\)/);
  });

  it('refuses overlapping blocks', () => {
    const r = planEdit(src, [
      { search: 'function a() {\n  return 1;', replace: 'a' },
      { search: 'return 1;\n}', replace: 'b' },
    ]);
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.message, /overlap/);
  });

  it('splices the bytes of pure-ASCII files and encodes others, agreeing with newText', () => {
    const ascii = ok(
      planEdit(enc.encode(src), [
        { search: 'return 2;', replace: 'return 20;' },
        { search: 'return 1;', replace: 'return 1; // one' },
      ]),
    );
    assert.equal(new TextDecoder().decode(ascii.newBytes), ascii.newText);
    assert.equal(ascii.newText, src.replace('return 1;', 'return 1; // one').replace('return 2;', 'return 20;'));
    const wide = ok(
      planEdit(enc.encode('héllo\nwörld\nend\n'), [
        { search: 'end', replace: 'fín' },
        { search: 'wörld', replace: 'world' },
      ]),
    );
    assert.equal(new TextDecoder().decode(wide.newBytes), 'héllo\nworld\nfín\n');
    assert.equal(wide.newText, 'héllo\nworld\nfín\n');
  });

  it('keeps CRLF line endings and converts LF replacements to CRLF', () => {
    const crlf = 'one\r\ntwo\r\nthree\r\n';
    const r = ok(planEdit(enc.encode(crlf), [{ search: 'two\nthree', replace: 'TWO\nTHREE\nFOUR' }]));
    assert.equal(r.newText, 'one\r\nTWO\r\nTHREE\r\nFOUR\r\n');
    assert.deepEqual([...r.newBytes], [...enc.encode('one\r\nTWO\r\nTHREE\r\nFOUR\r\n')]);
  });

  it('keeps a UTF-8 BOM', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('héllo\nworld\n')]);
    const r = ok(planEdit(bytes, [{ search: 'world', replace: 'wörld' }]));
    assert.deepEqual([...r.newBytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.equal(decodeText(r.newBytes).text, 'héllo\nwörld\n');
  });

  it('keeps Latin-1 bytes outside the edit unchanged', () => {
    const bytes = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6c, 0x64, 0x0a, 0xfc, 0x0a]); // "café\nold\nü\n"
    const r = ok(planEdit(bytes, [{ search: 'old', replace: 'new' }]));
    assert.deepEqual([...r.newBytes], [0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6e, 0x65, 0x77, 0x0a, 0xfc, 0x0a]);
    assert.equal(r.encoding, 'latin1');
  });

  it('keeps UTF-16 LE with its BOM', () => {
    const text = 'alpha\nbeta\n';
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) bytes[2 + i * 2] = text.charCodeAt(i);
    const r = ok(planEdit(bytes, [{ search: 'beta', replace: 'gamma' }]));
    assert.deepEqual([...r.newBytes.subarray(0, 2)], [0xff, 0xfe]);
    assert.equal(decodeText(r.newBytes).text, 'alpha\ngamma\n');
  });

  it('refuses binary content', () => {
    const r = planEdit(new Uint8Array([1, 2, 0, 3]), [{ search: 'a', replace: 'b' }]);
    assert.equal(r.ok, false);
  });

  it('deletes whole lines without leaving a blank line', () => {
    const r = ok(planEdit('a\n  b\nc\n', [{ search: 'b   ', replace: '' }]));
    assert.equal(r.newText, 'a\nc\n');
  });

  it('computes a correct diff when a block removes a newline', () => {
    const r = ok(planEdit('a\nb\nc\n', [{ search: 'a\n', replace: 'a' }]));
    assert.equal(r.newText, 'ab\nc\n');
    assert.match(r.diff, /-a\n-b\n\+ab\n/);
  });
});
