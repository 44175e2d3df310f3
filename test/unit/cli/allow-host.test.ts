// `keel run --allow-host`: the one place besides the user's settings that lets web_fetch reach a
// host that is not public. It takes a host or host:port and nothing else of a URL (a path, a user
// name, a scheme would suggest a narrower or wider rule than the one applied), and --help says so.
import assert from 'node:assert/strict';
import { parseResumeArgs, parseRunArgs, UsageError } from '../../../src/cli/args.js';
import { USAGE } from '../../../src/cli/usage.js';

describe('keel run --allow-host', () => {
  it('takes hosts and host:port, repeatable, for keel run and keel resume alike', () => {
    const run = parseRunArgs(
      ['run', '--allow-host', 'localhost:8080', '--allow-host', '[::1]:3000', '--allow-host', 'docs.internal', 'x'],
      '/w',
    );
    assert.deepEqual(run.allowHosts, ['localhost:8080', '[::1]:3000', 'docs.internal']);
    assert.equal(parseRunArgs(['run', 'x'], '/w').allowHosts, undefined, 'none unless given');
    assert.deepEqual(parseResumeArgs(['task.jsonl', '--allow-host', '10.0.0.5'], '/w').options.allowHosts, ['10.0.0.5']);
  });

  it('refuses anything more than a host and a port', () => {
    for (const bad of ['http://localhost:8080', 'localhost/admin', 'user@localhost', 'localhost?x=1', '', 'a b']) {
      assert.throws(
        () => parseRunArgs(['run', '--allow-host', bad, 'x'], '/w'),
        (err: unknown) => err instanceof UsageError && /--allow-host takes a host/.test(err.message),
        bad,
      );
    }
  });

  it('is in keel run --help', () => {
    assert.match(USAGE, /--allow-host HOST\[:PORT\]/);
  });
});
