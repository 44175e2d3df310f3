// Roo Code's multi-search-replace tests (src/core/diff/strategies/__tests__/multi-search-replace
// .spec.ts: exact, fuzzy and deletion; and multi-search-replace-trailing-newline.spec.ts). Roo's
// `:start_line:` hints have no edit_file equivalent and are dropped; the block is the same.
import { L, type PeerCase } from './peer-case.js';

const r = (
  what: string,
  file: string,
  edits: [string, string][],
  expected: PeerCase['expected'],
  keelRefuses?: PeerCase['keelRefuses'],
): PeerCase => ({
  peer: 'roo',
  what,
  file,
  edits: edits.map(([search, replace]) => ({ search, replace })),
  expected,
  ...(keelRefuses ? { keelRefuses } : {}),
});

// Their cases not ported here (they test no edit):
// - spec: "invalid diff format" (a diff without blocks)
// - spec: 13 marker-sequence and 11 line-marker validations

const hello = 'function hello() {\n    console.log("hello")\n}\n';
const example = L(
  'class Example {',
  '    constructor() {',
  '        this.value = 0;',
  '        if (true) {',
  '            this.init();',
  '        }',
  '    }',
  '}',
);
const enjoy =
  "**Enjoy Roo Code!** Whether you keep it on a short leash or let it roam autonomously, we can't wait to see what you build. If you have questions or feature ideas, drop by our [Reddit community](https://www.reddit.com/r/RooCode/) or [Discord](https://discord.gg/roocode). Happy coding!";
const targets = ['one', 'two', 'three', 'four', 'five'].map((n) => L(`function ${n}() {`, '    return "target";', '}')).join('\n\n');

export const ROO: PeerCase[] = [
  r(
    'exact: one block',
    hello,
    [['function hello() {\n    console.log("hello")\n}', 'function hello() {\n    console.log("hello world")\n}']],
    'function hello() {\n    console.log("hello world")\n}\n',
  ),
  ...['two blocks', 'two blocks with :start_line:'].map((v) =>
    r(
      `exact: ${v}`,
      hello,
      [
        ['function hello() {', 'function helloWorld() {'],
        ['    console.log("hello")', '    console.log("hello world")'],
      ],
      'function helloWorld() {\n    console.log("hello world")\n}\n',
    ),
  ),
  r(
    'exact: with :end_line:',
    hello,
    [['function hello() {', 'function helloWorld() {']],
    'function helloWorld() {\n    console.log("hello")\n}\n',
  ),
  r(
    'exact: blank lines around the function',
    '\nfunction example() {\n    return 42;\n}\n\n',
    [['function example() {\n    return 42;\n}', 'function example() {\n    return 43;\n}']],
    '\nfunction example() {\n    return 43;\n}\n\n',
  ),
  r(
    'exact: search without the indentation',
    '    function test() {\n        return true;\n    }\n',
    [['function test() {\n    return true;\n}', 'function test() {\n    return false;\n}']],
    '    function test() {\n        return false;\n    }\n',
  ),
  r(
    'exact: tabs',
    'function test() {\n\treturn true;\n}\n',
    [['function test() {\n\treturn true;\n}', 'function test() {\n\treturn false;\n}']],
    'function test() {\n\treturn false;\n}\n',
  ),
  r(
    'exact: mixed tabs and spaces',
    '\tclass Example {\n\t    constructor() {\n\t\tthis.value = 0;\n\t    }\n\t}',
    [
      [
        '\tclass Example {\n\t    constructor() {\n\t\tthis.value = 0;\n\t    }\n\t}',
        '\tclass Example {\n\t    constructor() {\n\t\tthis.value = 1;\n\t    }\n\t}',
      ],
    ],
    '\tclass Example {\n\t    constructor() {\n\t\tthis.value = 1;\n\t    }\n\t}',
  ),
  r(
    'exact: search one tab short',
    '\tfunction test() {\n\t\treturn true;\n\t}',
    [['function test() {\n\treturn true;\n}', 'function test() {\n\t// Add comment\n\treturn false;\n}']],
    '\tfunction test() {\n\t\t// Add comment\n\t\treturn false;\n\t}',
  ),
  r(
    'exact: lines added with tabs',
    '\tfunction test() {\n\t\treturn true;\n\t}',
    [
      [
        '\tfunction test() {\n\t\treturn true;\n\t}',
        '\tfunction test() {\n\t\t// First comment\n\t\t// Second comment\n\t\treturn true;\n\t}',
      ],
    ],
    '\tfunction test() {\n\t\t// First comment\n\t\t// Second comment\n\t\treturn true;\n\t}',
  ),
  r(
    'exact: CRLF file, LF block',
    'function test() {\r\n    return true;\r\n}\r\n',
    [['function test() {\n    return true;\n}', 'function test() {\n    return false;\n}']],
    'function test() {\r\n    return false;\r\n}\r\n',
  ),
  r(
    'exact: no match',
    hello,
    [['function hello() {\n    console.log("wrong")\n}', 'function hello() {\n    console.log("hello world")\n}']],
    'refused',
    'not_found',
  ),
  r(
    'exact: lines added inside a method',
    'class Example {\n    constructor() {\n        this.value = 0\n    }\n\n    getValue() {\n        return this.value\n    }\n}\n',
    [
      [
        '    getValue() {\n        return this.value\n    }',
        '    getValue() {\n        // Add logging\n        console.log("Getting value")\n        return this.value\n    }',
      ],
    ],
    'class Example {\n    constructor() {\n        this.value = 0\n    }\n\n    getValue() {\n        // Add logging\n        console.log("Getting value")\n        return this.value\n    }\n}\n',
  ),
  r(
    'exact: whitespace kept in the output',
    '    indented\n        more indented\n    back\n',
    [['    indented\n        more indented\n    back', '    modified\n        still indented\n    end']],
    '    modified\n        still indented\n    end\n',
  ),
  r(
    'exact: lines added after the only line',
    '\t\t\t\tonScroll={() => updateHighlights()}',
    [
      [
        '\t\t\t\tonScroll={() => updateHighlights()}',
        L(
          '\t\t\t\tonScroll={() => updateHighlights()}',
          '\t\t\t\tonDragOver={(e) => {',
          '\t\t\t\t\te.preventDefault()',
          '\t\t\t\t\te.stopPropagation()',
          '\t\t\t\t}}',
        ),
      ],
    ],
    L(
      '\t\t\t\tonScroll={() => updateHighlights()}',
      '\t\t\t\tonDragOver={(e) => {',
      '\t\t\t\t\te.preventDefault()',
      '\t\t\t\t\te.stopPropagation()',
      '\t\t\t\t}}',
    ),
  ),
  r(
    'exact: search indented four spaces too far',
    example,
    [
      [
        L(
          '    class Example {',
          '        constructor() {',
          '            this.value = 0;',
          '            if (true) {',
          '                this.init();',
          '            }',
          '        }',
          '    }',
        ),
        L(
          '    class Example {',
          '        constructor() {',
          '            this.value = 1;',
          '            if (true) {',
          '                this.init();',
          '                this.setup();',
          '                this.validate();',
          '            }',
          '        }',
          '    }',
        ),
      ],
    ],
    L(
      'class Example {',
      '    constructor() {',
      '        this.value = 1;',
      '        if (true) {',
      '            this.init();',
      '            this.setup();',
      '            this.validate();',
      '        }',
      '    }',
      '}',
    ),
  ),
  r(
    'exact: one search line indented differently',
    example,
    [
      [
        L('    constructor() {', '        this.value = 0;', '        if (true) {', '        this.init();', '        }', '    }'),
        L(
          '    constructor() {',
          '        this.value = 1;',
          '        if (true) {',
          '        this.init();',
          '        this.validate();',
          '        }',
          '    }',
        ),
      ],
    ],
    L(
      'class Example {',
      '    constructor() {',
      '        this.value = 1;',
      '        if (true) {',
      '        this.init();',
      '        this.validate();',
      '        }',
      '    }',
      '}',
    ),
    // The search's `this.init();` steps out of the if block relative to the file's: accepting
    // it would move the file's line (Roo writes it back outdented). Keel refuses instead.
    'indentation',
  ),
  r(
    'exact: Python indentation',
    L(
      'def example():',
      '    if condition:',
      '        do_something()',
      '        for item in items:',
      '            process(item)',
      '    return True',
    ),
    [
      [
        L('    if condition:', '        do_something()', '        for item in items:', '            process(item)'),
        L(
          '    if condition:',
          '        do_something()',
          '        while items:',
          '            item = items.pop()',
          '            process(item)',
        ),
      ],
    ],
    L(
      'def example():',
      '    if condition:',
      '        do_something()',
      '        while items:',
      '            item = items.pop()',
      '            process(item)',
      '    return True',
    ),
  ),
  r(
    'exact: a whitespace-only line inside the block',
    L('function test() {', '    const x = 1;', '    ', '    if (x) {', '        return true;', '    }', '}'),
    [[L('    const x = 1;', '    ', '    if (x) {'), L('    const x = 1;', '    ', '    // Check x', '    if (x) {')]],
    L('function test() {', '    const x = 1;', '    ', '    // Check x', '    if (x) {', '        return true;', '    }', '}'),
  ),
  r(
    'exact: a whole method wrapped in try',
    L('class Test {', '    method() {', '        if (true) {', '            console.log("test");', '        }', '    }', '}'),
    [
      [
        L('    method() {', '        if (true) {', '            console.log("test");', '        }', '    }'),
        L(
          '    method() {',
          '        try {',
          '            if (true) {',
          '                console.log("test");',
          '            }',
          '        } catch (e) {',
          '            console.error(e);',
          '        }',
          '    }',
        ),
      ],
    ],
    L(
      'class Test {',
      '    method() {',
      '        try {',
      '            if (true) {',
      '                console.log("test");',
      '            }',
      '        } catch (e) {',
      '            console.error(e);',
      '        }',
      '    }',
      '}',
    ),
  ),
  r(
    'exact: replace less indented than the search',
    L(
      'class Example {',
      '    constructor() {',
      '        if (true) {',
      '            this.init();',
      '            this.setup();',
      '        }',
      '    }',
      '}',
    ),
    [[L('            this.init();', '            this.setup();'), L('        this.init();', '        this.setup();')]],
    L(
      'class Example {',
      '    constructor() {',
      '        if (true) {',
      '        this.init();',
      '        this.setup();',
      '        }',
      '    }',
      '}',
    ),
  ),
  r(
    'exact: replace with no indentation',
    L('class Example {', '    constructor() {', '        if (true) {', '            this.init();', '        }', '    }', '}'),
    [['            this.init();', 'this.init();']],
    L('class Example {', '    constructor() {', '        if (true) {', 'this.init();', '        }', '    }', '}'),
  ),
  r(
    'exact: replace with mixed indentation',
    L(
      'class Example {',
      '    constructor() {',
      '        if (true) {',
      '            this.init();',
      '            this.setup();',
      '            this.validate();',
      '        }',
      '    }',
      '}',
    ),
    [
      [
        L('            this.init();', '            this.setup();', '            this.validate();'),
        L('        this.init();', '            this.setup();', '    this.validate();'),
      ],
    ],
    L(
      'class Example {',
      '    constructor() {',
      '        if (true) {',
      '        this.init();',
      '            this.setup();',
      '    this.validate();',
      '        }',
      '    }',
      '}',
    ),
  ),
  r(
    'exact: five identical lines, Roo picks the one nearest a line hint',
    targets,
    [['    return "target";', '    return "updated";']],
    targets.replace(/target(?=";\n}\n\nfunction four)/, 'updated'),
    'ambiguous',
  ),
  r(
    'fuzzy: a search 90% similar (result vs results)',
    'function getData() {\n    const results = fetchData();\n    return results.filter(Boolean);\n}\n',
    [
      [
        'function getData() {\n    const result = fetchData();\n    return results.filter(Boolean);\n}',
        'function getData() {\n    const data = fetchData();\n    return data.filter(Boolean);\n}',
      ],
    ],
    'function getData() {\n    const data = fetchData();\n    return data.filter(Boolean);\n}\n',
    'not_found',
  ),
  r(
    'fuzzy: a search too different',
    'function processUsers(data) {\n    return data.map(user => user.name);\n}\n',
    [
      [
        'function handleItems(items) {\n    return items.map(item => item.username);\n}',
        'function processData(data) {\n    return data.map(d => d.value);\n}',
      ],
    ],
    'refused',
    'not_found',
  ),
  r(
    'fuzzy: runs of spaces inside lines',
    'function sum(a, b) {\n    return a + b;\n}',
    [['function   sum(a,   b)    {\n    return    a + b;\n}', 'function sum(a, b) {\n    return a + b + 1;\n}']],
    'function sum(a, b) {\n    return a + b + 1;\n}',
  ),
  r('fuzzy: a long line (the "smart quotes" case)', enjoy, [[enjoy, `${enjoy}\n\nYou're still here?`]], `${enjoy}\n\nYou're still here?`),
  r(
    'fuzzy: a line before a blank line',
    'function sum(a, b) {\n\n    return a + b;\n}',
    [['function sum(a, b) {', 'import { a } from "a";\nfunction sum(a, b) {']],
    'import { a } from "a";\nfunction sum(a, b) {\n\n    return a + b;\n}',
  ),
  r(
    'deletion: one line',
    L('function test() {', '    console.log("hello");', '    // Comment to remove', '    console.log("world");', '}'),
    [['    // Comment to remove', '']],
    L('function test() {', '    console.log("hello");', '    console.log("world");', '}'),
  ),
  r(
    'deletion: five lines',
    L(
      'class Example {',
      '    constructor() {',
      '        // Initialize',
      '        this.value = 0;',
      '        // Set defaults',
      '        this.name = "";',
      '        // End init',
      '    }',
      '}',
    ),
    [
      [
        L('        // Initialize', '        this.value = 0;', '        // Set defaults', '        this.name = "";', '        // End init'),
        '',
      ],
    ],
    L('class Example {', '    constructor() {', '    }', '}'),
  ),
  r(
    'deletion: nested lines',
    L(
      'function outer() {',
      '    if (true) {',
      '        // Remove this',
      '        console.log("test");',
      '        // And this',
      '    }',
      '    return true;',
      '}',
    ),
    [[L('        // Remove this', '        console.log("test");', '        // And this'), '']],
    L('function outer() {', '    if (true) {', '    }', '    return true;', '}'),
  ),
  r('deletion: a line given with its line number', 'line 1\nline to delete\nline 3', [['2 | line to delete', '']], 'line 1\nline 3'),
  r(
    'numbered: a whole class',
    L('class Example {', '    constructor() {', '        this.value = 0;', '    }', '}'),
    [
      [
        L('1 | class Example {', '2 |     constructor() {', '3 |         this.value = 0;', '4 |     }', '5 | }'),
        L('class Example {', '    constructor() {', '        this.value = 1;', '    }', '}'),
      ],
    ],
    L('class Example {', '    constructor() {', '        this.value = 1;', '    }', '}'),
  ),
  r(
    'numbered: CRLF file',
    'function test() {\r\n    return true;\r\n}\r\n',
    [[L('1 | function test() {', '2 |     return true;', '3 | }'), L('function test() {', '    return false;', '}')]],
    'function test() {\r\n    return false;\r\n}\r\n',
  ),
  r(
    'numbered: two blocks',
    L('function one() {', '    return 1;', '}', '', 'function two() {', '    return 2;', '}'),
    [
      [L('1 | function one() {', '2 |     return 1;', '3 | }'), L('function one() {', '    return 10;', '}')],
      [L('5 | function two() {', '6 |     return 2;', '7 | }'), L('function two() {', '    return 20;', '}')],
    ],
    L('function one() {', '    return 10;', '}', '', 'function two() {', '    return 20;', '}'),
  ),
  r(
    'numbered: four-digit numbers, block grows above',
    L(
      '                List<ContactInfoItemResp> addressInfoList = new ArrayList<>(CollectionUtils.size(repairInfoList) > 10 ? 10',
      '                                : CollectionUtils.size(repairInfoList) + CollectionUtils.size(homeAddressInfoList)',
      '                                                + CollectionUtils.size(idNoAddressInfoList) + CollectionUtils.size(workAddressInfoList)',
      '                                                + CollectionUtils.size(personIdentityInfoList));',
    ),
    [
      [
        L(
          '1476 |                 List<ContactInfoItemResp> addressInfoList = new ArrayList<>(CollectionUtils.size(repairInfoList) > 10 ? 10',
          '1477 |                                 : CollectionUtils.size(repairInfoList) + CollectionUtils.size(homeAddressInfoList)',
          '1478 |                                                 + CollectionUtils.size(idNoAddressInfoList) + CollectionUtils.size(workAddressInfoList)',
          '1479 |                                                 + CollectionUtils.size(personIdentityInfoList));',
        ),
        L(
          '                ',
          '                // Filter addresses if optimization is enabled',
          '                if (isAddressDisplayOptimizeEnabled()) {',
          '                    homeAddressInfoList = filterAddressesByThreeYearRule(homeAddressInfoList);',
          '                    personIdentityInfoList = filterAddressesByThreeYearRule(personIdentityInfoList);',
          '                    idNoAddressInfoList = filterAddressesByThreeYearRule(idNoAddressInfoList);',
          '                    workAddressInfoList = filterAddressesByThreeYearRule(workAddressInfoList);',
          '                }',
          '                ',
          '                List<ContactInfoItemResp> addressInfoList = new ArrayList<>(CollectionUtils.size(repairInfoList) > 10 ? 10',
          '                                : CollectionUtils.size(repairInfoList) + CollectionUtils.size(homeAddressInfoList)',
          '                                                + CollectionUtils.size(idNoAddressInfoList) + CollectionUtils.size(workAddressInfoList)',
          '                                                + CollectionUtils.size(personIdentityInfoList));',
        ),
      ],
    ],
    {
      includes: ['// Filter addresses if optimization is enabled', 'if (isAddressDisplayOptimizeEnabled())'],
      excludes: ['1479 |', '1488 |'],
    },
  ),
  r(
    'numbered: last line without a newline',
    'line 1\nline 2\nline 3',
    [[L('1 | line 1', '2 | line 2', '3 | line 3'), L('line 1', 'modified line 2', 'line 3')]],
    'line 1\nmodified line 2\nline 3',
  ),
];
