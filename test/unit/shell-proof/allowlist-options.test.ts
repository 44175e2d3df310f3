// The read-only allowlist against the programs on this machine (test/support/allowlist-options.ts):
// each program's own option list, from --help and its man page, must agree with the table Keel
// parses it with, and every option it documents must be classified — in the table, or reviewed
// and left out (test/fixtures/allowlist/unlisted-options.json). An upgrade that adds an option,
// or a table that reads an option's value differently from the program, fails here.
import assert from 'node:assert/strict';
import { checkAll, checkedPrograms, problemsOf } from '../../support/allowlist-options.js';
import { readDocs } from '../../support/option-docs.js';
import { options } from '../../../src/tools/policy/program-args.js';

describe('the read-only allowlist against the real programs', function () {
  this.timeout(120_000);

  it('reads every option as the program does and classifies every option the program documents', () => {
    const programs = checkedPrograms();
    const reports = checkAll(programs);
    const missing = reports.filter((r, i) => r.sources.length === 0 && programs[i]!.required).map((r) => r.name);
    if (missing.length && process.env.CI) assert.fail(`not installed, so not checked: ${missing.join(', ')}`);
    if (missing.length) console.log(`      (not installed here, not checked: ${missing.join(', ')})`);
    const problems = reports.flatMap((r) => r.problems.map((p) => `${r.name}: ${p}`));
    assert.deepEqual(problems, [], `\n${problems.join('\n')}\n(run node --import=tsx test/support/allowlist-options.ts for the report)`);
    assert.ok(reports.filter((r) => r.sources.length > 0).length >= 40, 'most of the allowlist was checked');
  });

  it('fails a table that takes the next word as a value where the program does not (git diff -U), or misses an option', () => {
    const docs = readDocs([{ argv: ['git', 'range-diff', '-h'], from: /^Diff output format options/ }, { man: 'git-diff' }]);
    const wrong = options('-p -u --patch, -U --unified =num, --stat =?');
    const problems = problemsOf({ name: 'git diff', table: wrong, sources: [], required: true }, docs, { unlisted: [], undocumented: [] });
    assert.ok(
      problems.some((p) => /reads -U\/--unified as consumes/.test(p)),
      problems.join('\n'),
    );
    assert.ok(problems.some((p) => /documents --output, which the allowlist does not classify/.test(p)));
  });
});
