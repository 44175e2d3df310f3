// Continue's find-and-replace tests (core/edit/searchAndReplace/executeFindAndReplace.vitest.ts,
// multiEdit.vitest.ts, findAndReplaceUtils.vitest.ts). Continue applies a multi-edit's blocks one
// after another; Keel applies all blocks to the file as read, so a block that searches for an
// earlier block's output is refused. replace_all has no edit_file equivalent.
import type { PeerCase } from './peer-case.js';

const c = (
  what: string,
  file: string,
  edits: [string, string][],
  expected: PeerCase['expected'],
  keelRefuses?: PeerCase['keelRefuses'],
): PeerCase => ({
  peer: 'continue',
  what,
  file,
  edits: edits.map(([search, replace]) => ({ search, replace })),
  expected,
  ...(keelRefuses ? { keelRefuses } : {}),
});

// Their cases not ported here (they test no edit):
// - executeFindAndReplace: 4 replace_all cases
// - multiEdit: 3 replace_all cases, 4 argument-shape checks (not an array, missing, missing old_string, missing new_string), 1 validation without a file
// - findAndReplaceUtils: 18 argument checks without a file (types, replace_all, error context), 3 trimEmptyLines helper checks
// - findSearchMatch, findSearchMatches: none (every case is here)
// - lazy edits (core/edit/lazy): whole-file rewrites with "... existing code" markers, not search/replace blocks

const greeting = 'Hello world\nThis is a test file\nGoodbye world';

export const CONTINUE_REPLACE: PeerCase[] = [
  c('execute: one occurrence', 'Hello world\nThis is a test file\nGoodbye', [['Hello', 'Hi']], 'Hi world\nThis is a test file\nGoodbye'),
  c('execute: a line that starts like another', 'Hello world\nHello again', [['Hello world', 'Hi world']], 'Hi world\nHello again'),
  c('execute: delete part of a line', 'Hello world', [['Hello ', '']], 'world'),
  c('execute: empty search inserts into an empty file', '', [['', 'Hello world']], 'Hello world', 'empty_search'),
  c(
    'execute: indentation kept',
    "function test() {\n    const value = 'old';\n    return value;\n}",
    [["    const value = 'old';", "    const value = 'new';"]],
    "function test() {\n    const value = 'new';\n    return value;\n}",
  ),
  c('execute: two lines', 'line1\nline2\nline3', [['line1\nline2', 'newline1\nnewline2']], 'newline1\nnewline2\nline3'),
  c('execute: regex characters', 'const regex = /[a-z]+/g;', [['/[a-z]+/g', '/[A-Z]+/g']], 'const regex = /[A-Z]+/g;'),
  c('execute: dollar signs', 'const text = "Hello $world"', [['"Hello $world"', '"Hi $universe"']], 'const text = "Hi $universe"'),
  c('execute: backslashes', 'const path = "C:\\Users\\test"', [['C:\\Users\\test', 'D:\\Users\\test']], 'const path = "D:\\Users\\test"'),
  c(
    'execute: parentheses',
    "function test() { return 'old'; }",
    [["() { return 'old'; }", "() { return 'new'; }"]],
    "function test() { return 'new'; }",
  ),
  c('execute: square brackets', 'const arr = [1, 2, 3];', [['[1, 2, 3]', '[4, 5, 6]']], 'const arr = [4, 5, 6];'),
  c('execute: not found', 'Hello world', [['xyz', 'abc']], 'refused', 'not_found'),
  c('execute: not found (with edit index)', 'Hello world', [['xyz', 'abc']], 'refused', 'not_found'),
  c('execute: three occurrences', 'Hello world\nHello again\nHello there', [['Hello', 'Hi']], 'refused', 'ambiguous'),
  c('execute: three occurrences (with edit index)', 'test test test', [['test', 'exam']], 'refused', 'ambiguous'),
  c(
    'execute: search without the indentation',
    'def foo():\n    x = 1\n    y = 2\n    return x + y\n',
    [['x = 1\ny = 2', 'x = 10\ny = 20']],
    'def foo():\n    x = 10\n    y = 20\n    return x + y\n',
  ),
  c(
    'execute: inner indentation kept relative',
    'class Foo:\n    def bar(self):\n        if True:\n            x = 1\n',
    [['if True:\n    x = 1', 'if True:\n    x = 1\n    y = 2']],
    'class Foo:\n    def bar(self):\n        if True:\n            x = 1\n            y = 2\n',
  ),
  c(
    'execute: spaces in the search, a tab in the file',
    'function foo() {\n\tconst x = 1;\n}\n',
    [['  const x = 1;', '  const x = 2;\n  const y = 3;']],
    'function foo() {\n\tconst x = 2;\n\tconst y = 3;\n}\n',
  ),
  c('execute: an exact match is not re-indented', '    x = 1\n', [['    x = 1', '    x = 2']], '    x = 2\n'),
  c(
    'execute: runs of spaces inside lines',
    'def outer():\n    if  True:\n        return  42\n',
    [['if True:\n    return 42', 'if True:\n    return 99']],
    'def outer():\n    if True:\n        return 99\n',
  ),
  c('execute: one character', 'a b c', [['b', 'x']], 'a x c'),
  c('execute: a long search', `start${'a'.repeat(10000)}end`, [['a'.repeat(10000), 'short']], 'startshortend'),
  c('execute: at the start', 'start middle end', [['start', 'begin']], 'begin middle end'),
  c('execute: at the end', 'start middle end', [['end', 'finish']], 'start middle finish'),
  c('execute: the whole file', 'replace everything', [['replace everything', 'new content']], 'new content'),

  c('multiEdit: empty edits list', greeting, [], 'refused', 'no_edits'),
  c('multiEdit: identical search and replace', greeting, [['Hello world', 'Hello world']], 'refused', 'no_change'),
  c(
    'multiEdit: an empty search after the first block',
    greeting,
    [
      ['Hello world', 'Hi there'],
      ['', 'Invalid insertion'],
    ],
    'refused',
    'empty_search',
  ),
  c('multiEdit: one block', greeting, [['Hello world', 'Hi there']], 'Hi there\nThis is a test file\nGoodbye world'),
  c(
    'multiEdit: two blocks',
    greeting,
    [
      ['Hello world', 'Hi there'],
      ['Goodbye world', 'See you later'],
    ],
    'Hi there\nThis is a test file\nSee you later',
  ),
  c('multiEdit: empty search inserts at the start', greeting, [['', 'New first line\n']], `New first line\n${greeting}`, 'empty_search'),
  c('multiEdit: empty search, empty file', '', [['', 'Content for empty file']], 'Content for empty file', 'empty_search'),
  c(
    "multiEdit: a block that searches the previous block's output",
    greeting,
    [
      ['Hello world', 'Hi universe'],
      ['Hi universe', 'Greetings cosmos'],
    ],
    'Greetings cosmos\nThis is a test file\nGoodbye world',
    'not_found',
  ),
  c('multiEdit: not found', greeting, [['Not found', 'Hi there']], 'refused', 'not_found'),
  c('multiEdit: two occurrences', greeting, [['world', 'universe']], 'refused', 'ambiguous'),
  c(
    'multiEdit: the second block not found',
    'Hello world',
    [
      ['Hello', 'Hi'],
      ['not found', 'test'],
    ],
    'refused',
    'not_found',
  ),
  c(
    'multiEdit: whitespace removed',
    'function test() {\n  return true;\n}',
    [['function test(){return true;}', 'function test() { return false; }']],
    'function test() { return false; }',
    'not_found',
  ),
  c('multiEdit: preprocessing, one block', greeting, [['Hello world', 'Hi there']], 'Hi there\nThis is a test file\nGoodbye world'),
  c(
    'multiEdit: preprocessing, two blocks',
    greeting,
    [
      ['Hello world', 'Hi there'],
      ['Goodbye world', 'See you later'],
    ],
    'Hi there\nThis is a test file\nSee you later',
  ),

  c('validate: identical strings', 'same\n', [['same', 'same']], 'refused', 'no_change'),
  c('validate: identical strings (with edit index)', 'same\n', [['same', 'same']], 'refused', 'no_change'),
  c('validate: identical strings (no context)', 'same\n', [['same', 'same']], 'refused', 'no_change'),
  c('validate: both empty', 'same\n', [['', '']], 'refused', 'empty_search'),
];
