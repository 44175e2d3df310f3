// A parse stopped by its deadline leaves the shared parser clean: the next file parsed is read
// from its own text. Without a reset, tree-sitter resumes the stopped parse on the next call, and
// the next file got the first one's definitions with names cut from its own text.
import assert from 'node:assert/strict';
import { parseSource } from '../../../src/codeintel/extract.js';
import { languageOf } from '../../../src/codeintel/languages.js';
import { deadlineIn, ParseRefused } from '../../../src/codeintel/parse-limits.js';

describe('a parse stopped by its deadline', () => {
  it('does not leak into the next file parsed', async () => {
    const spec = languageOf('a.ts')!;
    const big = `export type Options = {\n${Array.from({ length: 20_000 }, (_, i) => `  key${i}: string;`).join('\n')}\n};\n`;
    let asked = 0;
    const passesSoon = { passed: () => ++asked > 2 };
    await assert.rejects(parseSource(big, spec, passesSoon), ParseRefused);
    assert.ok(asked > 2, 'the deadline was asked during the parse');
    const small = await parseSource(
      'export function safeParse(input: string): number {\n  return Number(input);\n}\n',
      spec,
      deadlineIn(60_000),
    );
    assert.deepEqual(
      small.defs.map((d) => [d.name, d.kind, d.line]),
      [['safeParse', 'function', 1]],
    );
  });
});
