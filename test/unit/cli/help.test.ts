// Which command lines get the usage from the small help bundle (src/cli/help.ts, loaded by
// bin/keel.js before the whole CLI): `keel --help` and each USAGE command's --help, never a task
// that merely mentions --help, and not fleet's or serve's, whose usage is their own.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { asksForHelp, printHelpIfAsked } from '../../../src/cli/help.js';
import { USAGE } from '../../../src/cli/usage.js';

describe('keel --help without the whole CLI', () => {
  it('answers keel --help, -h and every USAGE command’s --help', () => {
    for (const argv of [['--help'], ['-h'], ['run', '--help'], ['resume', 'x', '-h'], ['continue', '--help'], ['replay', '--help']])
      assert.equal(asksForHelp(argv), true, argv.join(' '));
  });

  it('leaves tasks, fleet and serve to the whole CLI', () => {
    for (const argv of [[], ['run', 'explain --help'], ['--help', 'run'], ['fleet', '--help'], ['serve', '--help'], ['--version']])
      assert.equal(asksForHelp(argv), false, argv.join(' '));
  });

  it('prints the usage only when asked', () => {
    let printed = '';
    const out = new PassThrough().on('data', (d) => (printed += d));
    assert.equal(printHelpIfAsked(['run', 'x'], out), false);
    assert.equal(printed, '');
    assert.equal(printHelpIfAsked(['--help'], out), true);
    assert.equal(printed, `${USAGE}\n`);
  });
});
