// Cline's edit tests: the search/replace engine's cases (src/core/assistant-message/diff.test.ts
// and diff_edge_cases.test.ts, before the move to apps/) and the SDK editor's old_text/new_text
// cases (sdk/packages/core/src/extensions/tools/executors/editor.test.ts). Cases that test only
// the marker syntax or line insertion have no edit_file equivalent and are listed in NOT_EDITS.
import { L, type PeerCase } from './peer-case.js';

const c = (
  what: string,
  file: string,
  edits: [string, string][],
  expected: PeerCase['expected'],
  keelRefuses?: PeerCase['keelRefuses'],
): PeerCase => ({
  peer: 'cline',
  what,
  file,
  edits: edits.map(([search, replace]) => ({ search, replace })),
  expected,
  ...(keelRefuses ? { keelRefuses } : {}),
});

const three = 'line1\nline2\nline3';
const beforeAfter = 'before\ncontent\nafter';
const twoBlocks = 'before\nfirst content\nafter\nsecond content\nend';

// Their cases not ported here (they test no edit):
// - diff.test: 3 malformed SEARCH markers (mixed symbols, too few dashes, no space)
// - diff.test: 4 malformed diffs (no separator, separator with a trailing space, two REPLACE markers, dashes before the separator)
// - editor.test: creating a missing file, inserting at a line (twice, one in CRLF), insert_line 0 refused

export const CLINE: PeerCase[] = [
  c('diff: empty file, empty search', '', [['', 'new content']], 'new content\n', 'empty_search'),
  c('diff: exact match', three, [['line2', 'replaced']], 'line1\nreplaced\nline3'),
  {
    ...c('diff: line-trimmed match', 'line1\n line2 \nline3', [['line2', 'replaced']], 'line1\nreplaced\nline3'),
    keelDiffers: {
      result: 'line1\n replaced \nline3',
      why: "the search is found exactly inside the line, and Keel (like Continue's engine) replaces it there, keeping the line's spaces; Cline's engine matches whole lines",
    },
  },
  c('diff: block of three lines', 'line1\nstart\nmiddle\nend\nline5', [['start\nmiddle\nend', 'replaced']], 'line1\nreplaced\nline5'),
  c('diff: replace ending in a blank line (streamed in chunks)', three, [['line2', 'replaced\n']], 'line1\nreplaced\n\nline3'),
  c('diff: final chunk with remaining content', three, [['line2', 'replaced']], 'line1\nreplaced\nline3'),
  c(
    'diff: two ordered blocks',
    'First\nSecond\nThird\nFourth',
    [
      ['First', '1st'],
      ['Third', '3rd'],
    ],
    '1st\nSecond\n3rd\nFourth',
  ),
  c(
    'diff: replace then delete the last line',
    'line1\nline2\nline3\nline4',
    [
      ['line2', 'replaced'],
      ['line4', ''],
    ],
    'line1\nreplaced\nline3\n',
  ),
  c(
    'diff: delete the first line then replace',
    'line1\nline2\nline3\nline4',
    [
      ['line1', ''],
      ['line3', 'replaced'],
    ],
    'line2\nreplaced\nline4',
  ),
  c('diff: no match', three, [['non-existent', 'replaced']], 'refused', 'not_found'),
  c('diff: final REPLACE marker missing', three, [['line2', 'replaced']], 'line1\nreplaced\nline3'),
  c(
    'diff: final REPLACE marker missing, several lines',
    'function test() {\n\tconst a = 1;\n\treturn a;\n}',
    [['\tconst a = 1;\n\treturn a;', "\tconst a = 42;\n\tconsole.log('updated');\n\treturn a;"]],
    "function test() {\n\tconst a = 42;\n\tconsole.log('updated');\n\treturn a;\n}",
  ),
  c(
    'diff: blocks out of order',
    'first\nsecond\nthird\nfourth\n',
    [
      ['fourth', 'new fourth'],
      ['second', 'new second'],
    ],
    'first\nnew second\nthird\nnew fourth\n',
  ),
  c(
    'diff: three blocks out of order',
    'one\ntwo\nthree\nfour\nfive\n',
    [
      ['four', 'fourth'],
      ['two', 'second'],
      ['five', 'fifth'],
    ],
    'one\nsecond\nthree\nfourth\nfifth\n',
  ),
  c(
    'diff: blocks out of order, tab-indented',
    'function test() {\n\tconst a = 1;\n\tconst b = 2;\n\tconst c = 3;\n\n}',
    [
      ['\tconst c = 3;', '\tconst c = 30;'],
      ['\tconst a = 1;', '\tconst a = 10;'],
    ],
    'function test() {\n\tconst a = 10;\n\tconst b = 2;\n\tconst c = 30;\n\n}',
  ),
  c(
    'diff: blocks out of order, one framed by blank lines',
    'header\n\nbody\n\nfooter\n',
    [
      ['footer', 'new footer'],
      ['\nbody\n', 'new body content'],
    ],
    'header\nnew body content\nnew footer\n',
  ),
  // diff_edge_cases: six marker-length variants of one edit, then two blocks in two variants.
  ...['<7 dashes', '>7 dashes', '<7 dashes, <7 equals', '<7 dashes, >7 equals', '>7 dashes, >7 equals', '>7 dashes, <7 equals'].map((v) =>
    c(`edge: marker variant ${v}`, beforeAfter, [['content', 'new content']], 'before\nnew content\nafter'),
  ),
  ...['second SEARCH <7 dashes', 'second SEARCH <7 dashes, <7 equals'].map((v) =>
    c(
      `edge: two blocks, ${v}`,
      twoBlocks,
      [
        ['first content', 'first new content'],
        ['second content', 'second new content'],
      ],
      'before\nfirst new content\nafter\nsecond new content\nend',
    ),
  ),
  // The SDK editor (old_text/new_text).
  c('editor: one line', 'a\nb\nc', [['b', 'B']], 'a\nB\nc'),
  c('editor: three lines to one', 'a\nb\nc\nd\ne\nf', [['b\nc\nd', 'B']], 'a\nB\ne\nf'),
  c('editor: a pure insertion', 'a\nb\nc', [['a\nb', 'a\nnew\nb']], 'a\nnew\nb\nc'),
  c(
    'editor: ten lines to one',
    L(...Array.from({ length: 10 }, (_, i) => `old-${i}`)),
    [[L(...Array.from({ length: 10 }, (_, i) => `old-${i}`)), 'replaced']],
    'replaced',
  ),
  c(
    'editor: six lines to four',
    L(...Array.from({ length: 6 }, (_, i) => `old-${i}`)),
    [[L(...Array.from({ length: 6 }, (_, i) => `old-${i}`)), L(...Array.from({ length: 4 }, (_, i) => `new-${i}`))]],
    L(...Array.from({ length: 4 }, (_, i) => `new-${i}`)),
  ),
  c('editor: LF text into a CRLF file', 'a\r\nb\r\nc\r\nd', [['b\nc', 'B\nC\nX']], 'a\r\nB\r\nC\r\nX\r\nd'),
  c('editor: CRLF text into an LF file', 'a\nb\nc', [['b\nc', 'B\r\nC']], 'a\nB\nC'),
  c('editor: $-sequences are literal', 'a\nb\nc', [['b', "cost=$100 pid=$$ match=$& rest=$'"]], "a\ncost=$100 pid=$$ match=$& rest=$'\nc"),
];
