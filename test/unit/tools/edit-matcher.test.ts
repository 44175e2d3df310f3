// edit_file's matcher: whole-line deletion on both paths, the typography and space-run step,
// blank lines around a search, and a miss that stays cheap without losing its closest-text hint.
import assert from 'node:assert/strict';
import { planEdit, type EditPlan, type EditWork } from '../../../src/tools/edit/plan-edit.js';

const enc = new TextEncoder();
const ok = (r: EditPlan) => {
  if (!r.ok) assert.fail(r.message);
  return r;
};
const refused = (r: EditPlan) => {
  if (r.ok) assert.fail(`expected a refusal, got:\n${r.newText}`);
  return r;
};

describe('edit matcher: deleting whole lines', () => {
  const fn = 'function test() {\n    console.log("hello");\n    // Comment to remove\n    console.log("world");\n}';
  const cls =
    'class Example {\n    constructor() {\n        // Initialize\n        this.value = 0;\n        // Set defaults\n        this.name = "";\n        // End init\n    }\n}';
  const inner = '        // Initialize\n        this.value = 0;\n        // Set defaults\n        this.name = "";\n        // End init';

  it('an exact match of one whole line with an empty replace leaves no blank line', () => {
    const r = ok(planEdit(fn, [{ search: '    // Comment to remove', replace: '' }]));
    assert.equal(r.newText, 'function test() {\n    console.log("hello");\n    console.log("world");\n}');
    assert.equal(r.tolerantBlocks, 0);
  });

  it('an exact match of five whole lines leaves `{\\n    }`, as the tolerant path does', () => {
    const exact = ok(planEdit(cls, [{ search: inner, replace: '' }]));
    assert.equal(exact.newText, 'class Example {\n    constructor() {\n    }\n}');
    const tolerant = ok(planEdit(cls, [{ search: inner.replace(/^ {8}/gm, '    '), replace: '' }]));
    assert.equal(tolerant.tolerantBlocks, 1);
    assert.equal(tolerant.newText, exact.newText);
  });

  it('keeps CRLF when deleting, and a search that ends with its newline is taken as given', () => {
    const crlf = ok(planEdit(enc.encode('a\r\nb\r\nc\r\n'), [{ search: 'b', replace: '' }]));
    assert.equal(crlf.newText, 'a\r\nc\r\n');
    assert.equal(ok(planEdit('a\nb\n\nc\n', [{ search: 'b\n', replace: '' }])).newText, 'a\n\nc\n');
  });

  it('deleting the last line (no final newline) keeps the line before it whole', () => {
    assert.equal(ok(planEdit('a\nb\nc', [{ search: 'c', replace: '' }])).newText, 'a\nb\n');
  });

  it('an empty replace of part of a line deletes only that part', () => {
    assert.equal(ok(planEdit('Hello world\n', [{ search: 'Hello ', replace: '' }])).newText, 'world\n');
    assert.equal(ok(planEdit('x = a + b\n', [{ search: ' + b', replace: '' }])).newText, 'x = a\n');
  });
});

describe('edit matcher: typography and runs of spaces', () => {
  it('matches curly quotes, dashes, the ellipsis and non-breaking spaces against ASCII, editing the real bytes', () => {
    const file = 'title = \u201CIt\u2019s done\u201D\nnote = "a \u2013 b \u2014 c\u2026"\nprice = 10\u00A0EUR\nend\n';
    const r = ok(
      planEdit(enc.encode(`\uFEFF${file}`.replace(/\n/g, '\r\n')), [
        { search: 'title = "It\'s done"', replace: 'title = "Done"' },
        { search: 'note = "a - b - c..."', replace: 'note = "abc"' },
        { search: 'price = 10 EUR', replace: 'price = 11 EUR' },
      ]),
    );
    assert.equal(r.tolerantBlocks, 3);
    assert.deepEqual([...r.newBytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.equal(r.newText, 'title = "Done"\r\nnote = "abc"\r\nprice = 11 EUR\r\nend\r\n');
  });

  it('matches runs of spaces inside a line, and re-indents', () => {
    const file = 'def outer():\n    if  True:\n        return  42\n';
    const r = ok(planEdit(file, [{ search: 'if True:\n    return 42', replace: 'if True:\n    return 99' }]));
    assert.equal(r.newText, 'def outer():\n    if True:\n        return 99\n');
  });

  it('matches the ASCII form in the file when the search has the typographic one', () => {
    const r = ok(planEdit("msg = 'don't'\n", [{ search: 'msg = \u2018don\u2019t\u2019', replace: "msg = 'do'" }]));
    assert.equal(r.newText, "msg = 'do'\n");
  });

  it('refuses when the loose step matches more than one place', () => {
    const r = refused(planEdit('a = "x"\nb\na = \u201Cx\u201D\n', [{ search: 'a = \u201Cx"', replace: 'a = 1' }]));
    assert.equal(r.reason, 'ambiguous');
    assert.match(r.message, /lines 1, 3/);
  });

  it('prefers a unique stricter match over several loose ones', () => {
    const r = ok(planEdit('a  = 1\na = 1  \nc\n', [{ search: 'a = 1', replace: 'a = 2' }]));
    assert.equal(r.newText, 'a  = 1\na = 2  \nc\n');
  });

  it('never matches by case or with whitespace removed', () => {
    assert.equal(refused(planEdit('const Foo = 1;\n', [{ search: 'const foo = 1;', replace: 'x' }])).reason, 'not_found');
    assert.equal(refused(planEdit('f(a, b)\n', [{ search: 'f(a,b)', replace: 'x' }])).reason, 'not_found');
  });
});

describe('edit matcher: blank lines around the search', () => {
  it('trims leading blank lines like trailing ones, and the replace lines that mirror them', () => {
    const file = '    line1\n    line2\n    line3\n';
    const r = ok(planEdit(file, [{ search: '\n  line1\n  line2\n', replace: '  new_line1\n  new_line2\n' }]));
    assert.equal(r.newText, '    new_line1\n    new_line2\n    line3\n');
    const mirrored = ok(planEdit('a\nb\nc\n', [{ search: '\n\n  b\n\n', replace: '\n\n  B\n\n' }]));
    assert.equal(mirrored.newText, 'a\nB\nc\n');
  });

  it('matches the text between blank lines exactly, but a final newline still ends a line', () => {
    assert.equal(ok(planEdit('function test() {}\n', [{ search: '\t\nfunction test()\n\t', replace: 'f()' }])).newText, 'f() {}\n');
    assert.equal(ok(planEdit('x\nfoo\ny\n', [{ search: '\n\nfoo\n', replace: '\n\nbar\n' }])).newText, 'x\nbar\ny\n');
    assert.equal(refused(planEdit('a foo b\n', [{ search: 'foo\n', replace: 'bar\n' }])).reason, 'not_found');
  });

  it('a whitespace-only search says the search is empty', () => {
    const r = refused(planEdit('a\n', [{ search: '  \n\t\n', replace: 'x' }]));
    assert.equal(r.reason, 'empty_search');
    assert.match(r.message, /search is empty/);
  });
});

describe('edit matcher: a miss stays cheap and keeps its hint', () => {
  const lines = Array.from({ length: 10_000 }, (_, i) => `  const value${i} = compute(${i}, "some text for line ${i}");`);
  const file = `${lines.join('\n')}\n`;

  it('compares a few lines, not every line, and still shows the closest text', () => {
    const work: EditWork = { linesCompared: 0 };
    const search = `${lines[7000]}\n  const missing = 1;\n${lines[7001]}`;
    const r = refused(planEdit(file, [{ search, replace: 'x' }], 'big.ts', { work }));
    assert.equal(r.reason, 'not_found');
    assert.match(r.message, /closest text is at line 7001 /);
    assert.ok(work.linesCompared < 500, `compared ${work.linesCompared} lines`);
  });

  it('finds the same closest place as scoring every line would, for blocks changed in typical ways', () => {
    const code = Array.from({ length: 400 }, (_, i) =>
      i % 7 === 0 ? `function handler${i}(event, options) {` : i % 7 === 6 ? '}' : `  const item${i} = load(event.items[${i}], options);`,
    );
    const text = `${code.join('\n')}\n`;
    const changes: ((l: string) => string)[] = [
      (l) => l.replace('const', 'let'),
      (l) => l.replace(/item(\d+)/, 'entry$1'),
      (l) => `${l} // note`,
      (l) => l.replace('options', 'opts'),
    ];
    for (const at of [8, 99, 260, 393]) {
      for (const change of changes) {
        const search = code
          .slice(at, at + 4)
          .map(change)
          .join('\n');
        const r = refused(planEdit(text, [{ search, replace: 'x' }]));
        assert.equal(closestLine(r.message), exhaustiveClosest(code, search.split('\n')) + 1, `at ${at}: ${search}`);
      }
    }
  });
});

function closestLine(message: string): number {
  return Number(/closest text is at line (\d+)/.exec(message)?.[1]);
}

/** The reference: score every line of the file (what the matcher did before anchoring). */
function exhaustiveClosest(file: readonly string[], search: readonly string[]): number {
  const lines = file.map((l) => bigrams(l.trim()));
  const probe = search.slice(0, 6).map((l) => bigrams(l.trim()));
  let best = { line: 0, score: -1 };
  for (let i = 0; i < file.length; i++) {
    let score = 0;
    for (let j = 0; j < probe.length && i + j < file.length; j++) score += dice(lines[i + j]!, probe[j]!);
    if (score > best.score) best = { line: i, score };
  }
  return best.line;
}

interface Bigrams {
  counts: Map<string, number>;
  total: number;
}

/** A string's bigram multiset, computed once per line (the reference scores every line against each probe line). */
function bigrams(s: string): Bigrams {
  const counts = new Map<string, number>();
  for (let i = 0; i + 1 < s.length; i++) counts.set(s.slice(i, i + 2), (counts.get(s.slice(i, i + 2)) ?? 0) + 1);
  return { counts, total: Math.max(0, s.length - 1) };
}

/** Dice similarity of two bigram multisets. */
function dice(a: Bigrams, b: Bigrams): number {
  let common = 0;
  for (const [g, n] of a.counts) common += Math.min(n, b.counts.get(g) ?? 0);
  return a.total + b.total === 0 ? 1 : (2 * common) / (a.total + b.total);
}
