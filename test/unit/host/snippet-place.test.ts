// Issue 21 #3: Apply merges a code block into the part of the file it is a new version of (or
// says it cannot tell), instead of replacing the whole file; Insert keeps a block's lines.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { insertionText, placeSnippet, replaceRange } from '../../../src/host/edits/snippet-place.js';

const PRICE = readFileSync(new URL('../../../examples/failing-tests/src/price.js', import.meta.url), 'utf8');
const FIXED = ['function discount(cents, percent) {', '  return Math.round((cents * percent) / 100);', '}', ''].join('\n');

describe('Apply: where a code block goes (issue 21 #3)', () => {
  it('replaces only the function a 4-line block is a new version of', () => {
    const placed = placeSnippet(PRICE, FIXED);
    assert.equal(placed.kind, 'range');
    if (placed.kind !== 'range') return;
    assert.equal(placed.range.label, 'function discount(cents, percent) {');
    const merged = replaceRange(PRICE, placed.range, FIXED);
    assert.equal(merged, PRICE.replace('Math.floor((cents * percent) / 100)', 'Math.round((cents * percent) / 100)'));
    assert.ok(merged.includes("'use strict';") && merged.includes('function total('), 'the rest of the file stays');
  });

  it('finds a definition by its signature when its first line changed, and puts a flush-left method back at its indentation', () => {
    const file = ['class Cart {', '  total(lines) {', '    return 0;', '  }', '', '  size() {', '    return 1;', '  }', '}', ''].join('\n');
    const block = ['total(lines, tax = 0) {', '  return lines.length + tax;', '}'].join('\n');
    const placed = placeSnippet(file, block);
    assert.equal(placed.kind, 'range');
    if (placed.kind !== 'range') return;
    assert.deepEqual([placed.range.from, placed.range.to], [1, 3]);
    assert.equal(
      replaceRange(file, placed.range, block),
      [
        'class Cart {',
        '  total(lines, tax = 0) {',
        '    return lines.length + tax;',
        '  }',
        '',
        '  size() {',
        '    return 1;',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('knows a whole file when it sees one', () => {
    assert.deepEqual(placeSnippet(PRICE, PRICE), { kind: 'whole' });
  });

  it('hands back several places, or none, for the user to choose', () => {
    const file = ['if (a) {', '  x();', '}', 'if (a) {', '  y();', '}'].join('\n');
    const twice = placeSnippet(file, 'if (a) {\n  z();\n}');
    assert.equal(twice.kind, 'ambiguous');
    assert.equal(twice.kind === 'ambiguous' && twice.ranges.length, 2);
    assert.deepEqual(placeSnippet(PRICE, 'const nothing = 1;'), { kind: 'none' });
  });

  it('uses indentation where there are no brackets (Python)', () => {
    const file = ['def a():', '    return 1', '', 'def b():', '    return 2', ''].join('\n');
    const placed = placeSnippet(file, 'def a():\n    return 3\n');
    assert.equal(placed.kind === 'range' && `${placed.range.from}-${placed.range.to}`, '0-1');
  });

  it('keeps the file’s CRLF line endings', () => {
    const file = 'a {\r\n  1\r\n}\r\nb {\r\n  2\r\n}\r\n';
    const placed = placeSnippet(file, 'b {\n  3\n}');
    assert.equal(placed.kind, 'range');
    if (placed.kind === 'range') assert.equal(replaceRange(file, placed.range, 'b {\n  3\n}'), 'a {\r\n  1\r\n}\r\nb {\r\n  3\r\n}\r\n');
  });
});

describe('Insert: a block keeps its lines (issue 21 #3)', () => {
  it('ends with a line break before text on the cursor’s line', () => {
    const block = 'function x() {\n  return 1;\n}';
    assert.equal(`${insertionText(block, '', "'use strict';")}'use strict';`, "function x() {\n  return 1;\n}\n'use strict';");
  });

  it('starts on its own line after text; a one-line block mid-line stays inline', () => {
    assert.equal(insertionText('a();\nb();', 'const x = 1;', ''), '\na();\nb();');
    assert.equal(insertionText('a();\nb();', 'const x = 1;', ' // tail'), '\na();\nb();\n');
    assert.equal(insertionText('total', 'const x = ', ';'), 'total');
    assert.equal(insertionText('const y = 2;', '', "'use strict';"), 'const y = 2;\n');
  });
});
