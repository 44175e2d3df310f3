// The generated workspace of the context benchmark: fifteen source files of known sizes (one
// larger than a read_file page, so it is read in part), three of them holding a bug a test
// finds, and a test script whose TAP output depends only on the files — the same bytes on every
// run. Each bug is a line the scripted model edits: `const BUG_N = true;` → `false`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Functions per file (about 280 characters each as read_file numbers them): all but mod4 fit one read_file page. */
const FILE_FUNCTIONS = [96, 110, 108, 200, 100, 110, 106, 104, 110, 108, 100, 110, 104, 108, 110];
/** Files whose test fails until their bug line is edited. */
export const BUGGY = [3, 7, 9];

export const fileName = (n: number): string => `src/mod${String(n).padStart(2, '0')}.js`;
export const bugLine = (n: number, on: boolean): string => `const BUG_${n} = ${on};`;

function moduleText(n: number, functions: number): string {
  const lines = [`// mod${n}: pricing rules of the sample shop (generated for Keel's context benchmark).`];
  for (let f = 0; f < functions; f++) {
    lines.push(
      `export function rule_${n}_${f}(cents, quantity, discount = 0) {`,
      `  const subtotal = cents * quantity - Math.floor((cents * quantity * discount) / 100); // step ${f} of module ${n}`,
      `  return Math.round(subtotal / ${f + 1}) * ${f + 1} + total_${n}(${f}); // TODO check rounding ${f}`,
      '}',
    );
    if (f === Math.floor(functions / 2))
      lines.push(bugLine(n, BUGGY.includes(n)), `export const total_${n} = (x) => (BUG_${n} ? x + 1 : x);`);
  }
  if (!lines.some((l) => l.startsWith(`const BUG_${n}`))) lines.push(bugLine(n, false));
  return `${lines.join('\n')}\n`;
}

/** Prints TAP like node:test, from the files alone: one test per module, failing while its bug is on. */
const TEST_SCRIPT = `const fs = require('node:fs');
const path = require('node:path');
const out = ['TAP version 13'];
let pass = 0;
let fail = 0;
for (let n = 1; n <= 15; n++) {
  const file = path.join(__dirname, '..', 'src', 'mod' + String(n).padStart(2, '0') + '.js');
  const buggy = fs.readFileSync(file, 'utf8').includes('const BUG_' + n + ' = true;');
  const name = 'mod' + n + ' totals round to the cent';
  out.push('# Subtest: ' + name);
  if (buggy) {
    fail++;
    out.push('not ok ' + n + ' - ' + name, '  ---', "  location: '" + file + ":1:1'", "  error: 'expected total_" + n + "(0) to be 0, got 1'", '  ...');
  } else {
    pass++;
    out.push('ok ' + n + ' - ' + name);
  }
}
out.push('1..15', '# tests 15', '# pass ' + pass, '# fail ' + fail);
console.log(out.join('\\n'));
process.exitCode = fail ? 1 : 0;
`;

/** A fresh copy of the workspace in a temporary folder. */
export function createWorkspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-bench-context-'));
  fs.mkdirSync(path.join(root, 'src'));
  fs.mkdirSync(path.join(root, 'scripts'));
  for (const [i, functions] of FILE_FUNCTIONS.entries()) fs.writeFileSync(path.join(root, fileName(i + 1)), moduleText(i + 1, functions));
  fs.writeFileSync(path.join(root, 'scripts', 'test.js'), TEST_SCRIPT);
  fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "bench-shop", "private": true }\n');
  return root;
}

/** An edit made outside Keel (the user in their editor): a comment line added at the top. */
export function editOutside(root: string, n: number): void {
  const file = path.join(root, fileName(n));
  fs.writeFileSync(file, `// reviewed by a person\n${fs.readFileSync(file, 'utf8')}`);
}
