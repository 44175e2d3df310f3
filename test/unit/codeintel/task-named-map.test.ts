// The repo map for a task that names a function: the file defining it comes first even when many
// classes have a member of the same name (too common a name for the graph alone) and other
// files are far more used, and the keys of object literals and object types take no line.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { looksLikeCode } from '../../../src/codeintel/rank.js';
import { TreeSitterIntel } from '../../../src/codeintel/tree-sitter-intel.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { scratchDir } from '../../support/scratch.js';

const SHAPES = 14;

function workspace(): string {
  const root = scratchDir('task-named-map');
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  const keys = Array.from({ length: 20 }, (_, i) => `  key${i}: string;`).join('\n');
  write(
    'src/options.ts',
    `export type Options = {\n${keys}\n};\nexport const defaults = {\n  first() { return 1; },\n  second() { return 2; },\n};\n`,
  );
  write('src/parse.ts', 'export function safeParse(input: string): number {\n  return Number(input);\n}\n');
  for (let i = 0; i < SHAPES; i++)
    write(
      `src/shapes/shape${i}.ts`,
      `import { Options } from '../options';\nexport class Shape${i} {\n  safeParse(o: Options) { return o; }\n}\n`,
    );
  return root;
}

describe('the repo map for a task that names a definition', function () {
  this.timeout(60_000);

  it('puts the file defining the named function first and gives literal keys no line', async () => {
    const root = workspace();
    const intel = new TreeSitterIntel(await createNodeWorkspace(root, { rgPath: null }), { parseWorkers: 0 });
    const request = { focusPaths: [], focusText: 'safeParse turns "12" into NaN: fix safeParse', budgetTokens: 2048 };
    const map = await intel.repoMap(request, new AbortController().signal);
    const paths = map!.text.split('\n').filter((l) => l.startsWith('src/'));
    assert.equal(paths[0], 'src/parse.ts', map!.text);
    assert.ok(!/key\d+: string/.test(map!.text), `object type keys shown:\n${map!.text}`);
    assert.ok(!/first\(\) \{/.test(map!.text), `object literal methods shown:\n${map!.text}`);
    assert.match(map!.text, /\d+ export type Options = \{/, 'the type itself keeps its line');
  });

  it('counts as code a name with an inner capital, a digit, _ or $, not a plain word', () => {
    assert.deepEqual(['safeParse', 'parse_entry', '$ZodType', 'v4', 'URL', 'parse', 'Fix', 'issue'].map(looksLikeCode), [
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
