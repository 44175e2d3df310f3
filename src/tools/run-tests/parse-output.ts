// Picks the parser whose signature the output carries. Order matters: the more specific
// formats (jest, vitest) come before the ones their output could also resemble.
import { cargoParser } from './parsers/cargo.js';
import { goTestParser } from './parsers/go-test.js';
import { jestParser } from './parsers/jest.js';
import { mochaParser } from './parsers/mocha.js';
import { nodeTestSpecParser } from './parsers/node-test.js';
import { pytestParser } from './parsers/pytest.js';
import { tapParser } from './parsers/tap.js';
import { vitestParser } from './parsers/vitest.js';
import { stripAnsi, type OutputParser, type TestReport } from './test-report.js';

export const PARSERS: readonly OutputParser[] = [
  jestParser,
  vitestParser,
  mochaParser,
  nodeTestSpecParser,
  tapParser,
  pytestParser,
  cargoParser,
  goTestParser,
];

export function parseTestOutput(output: string, root = ''): TestReport | undefined {
  const clean = stripAnsi(output).replace(/\r\n/g, '\n');
  const parser = PARSERS.find((p) => p.detect(clean));
  return parser?.parse(clean, root);
}
