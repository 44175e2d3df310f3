// Aider's edit-block tests (tests/basic/test_editblock.py): replace_most_similar_chunk and a
// full edit. Aider replaces the first of several matches; Keel refuses and asks for context.
import type { PeerCase } from './peer-case.js';

const a = (
  what: string,
  file: string,
  search: string,
  replace: string,
  expected: string,
  keelRefuses?: PeerCase['keelRefuses'],
): PeerCase => ({
  peer: 'aider',
  what,
  file,
  edits: [{ search, replace }],
  expected,
  ...(keelRefuses ? { keelRefuses } : {}),
});

// Their cases not ported here (they test no edit):
// - test_editblock: block parsing, file-name finding, ctags checks, a dry run and new-file creation

const four = '    line1\n    line2\n    line3\n';

export const AIDER: PeerCase[] = [
  a(
    'varied leading whitespace missing',
    '\n    line1\n    line2\n        line3\n    line4\n',
    'line2\n    line3\n',
    'new_line2\n    new_line3\n',
    '\n    line1\n    new_line2\n        new_line3\n    line4\n',
  ),
  a('leading whitespace missing', four, 'line1\nline2\n', 'new_line1\nnew_line2\n', '    new_line1\n    new_line2\n    line3\n'),
  a(
    'two matches: Aider takes the first',
    'line1\nline2\nline1\nline3\n',
    'line1\n',
    'new_line\n',
    'new_line\nline2\nline1\nline3\n',
    'ambiguous',
  ),
  a(
    'two matches without the indentation: Aider takes the first',
    '    line1\n    line2\n    line1\n    line3\n',
    'line1\n',
    'new_line\n',
    '    new_line\n    line2\n    line1\n    line3\n',
    'ambiguous',
  ),
  a(
    'some leading whitespace missing',
    four,
    ' line1\n line2\n',
    ' new_line1\n     new_line2\n',
    '    new_line1\n        new_line2\n    line3\n',
  ),
  a(
    'leading whitespace missing, a blank line first',
    four,
    '\n  line1\n  line2\n',
    '  new_line1\n  new_line2\n',
    '    new_line1\n    new_line2\n    line3\n',
  ),
  a('a full edit', 'one\ntwo\nthree\n', 'two', 'new', 'one\nnew\nthree\n'),
];
