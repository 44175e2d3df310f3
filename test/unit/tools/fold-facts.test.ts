// What an episode note keeps of a folded test run or search comes from the tools' facts (issue
// 22, item 5): run_tests names the failing tests, search_files the files it found hits in — real
// tools on the failing-tests example.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTestsTool } from '../../../src/tools/run-tests/run-tests.js';
import { searchFilesTool } from '../../../src/tools/search-files.js';
import { context, tempWorkspace } from './helpers.js';

const EXAMPLE = path.resolve(__dirname, '../../../examples/failing-tests');

describe('tool facts an episode note keeps', function () {
  this.timeout(60_000);

  it('run_tests names the failing tests; search_files the files with hits', async () => {
    const files = Object.fromEntries(
      ['package.json', 'src/price.js', 'test/price.test.js'].map((f) => [f, fs.readFileSync(path.join(EXAMPLE, f))]),
    );
    const t = await tempWorkspace(files);
    try {
      const run = await runTestsTool.execute({}, context(t.ws));
      assert.ok((run.facts?.test?.failed ?? 0) > 0, run.content);
      assert.equal(run.facts?.test?.failing?.length, run.facts?.test?.failed);
      assert.ok(run.facts?.test?.failing?.every((name) => run.content.includes(name)));
      const search = await searchFilesTool.execute({ query: 'discount' }, context(t.ws));
      assert.deepEqual(search.facts?.search?.paths.sort(), ['src/price.js', 'test/price.test.js']);
    } finally {
      await t.cleanup();
    }
  });
});
