// `--config FILE`: approvals, model and limits from a file the user or CI names, standing under
// the command line's flags (a flag wins; deny rules add up); a bad file is exit 2 in one line.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { InputError, parseRunArgs } from '../../../src/cli/args.js';
import { scratchDir } from '../../support/scratch.js';

describe('keel run --config FILE', () => {
  let dir: string;
  const config = (body: unknown) => {
    const file = path.join(dir, 'keel.json');
    fs.writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
    return file;
  };
  beforeEach(() => {
    dir = scratchDir('config-file');
  });

  it('gives approvals, model and limits; the command line wins, deny rules add up', () => {
    const file = config({
      approve: ['read', 'write'],
      model: 'claude-x',
      maxTurns: 7,
      maxTokens: 5000,
      denyCommands: ['rm'],
      sandbox: 'everything',
    });
    const o = parseRunArgs(['run', '--config', file, '--max-turns', '3', '--deny-command', 'make', 'task'], dir);
    assert.deepEqual([...o.approve].sort(), ['read', 'write']);
    assert.equal(o.model, 'claude-x');
    assert.equal(o.maxTurns, 3, 'the flag wins');
    assert.equal(o.budget.tokens, 5000);
    assert.equal(o.sandbox, 'everything');
    assert.deepEqual(o.denyCommands, ['rm', 'make']);
    const flagged = parseRunArgs(['run', '--config', file, '--approve', 'read', 'task'], dir);
    assert.deepEqual(flagged.approve, ['read'], '--approve on the command line replaces the file’s');
  });

  it('checks the file as the flags are checked, and refuses unknown keys and non-JSON', () => {
    assert.throws(() => parseRunArgs(['run', '--config', config({ approve: 'everything' }), 't'], dir), /--approve/);
    assert.throws(
      () => parseRunArgs(['run', '--config', config({ autoApprove: ['all'] }), 't'], dir),
      (e) => e instanceof InputError && /keel\.json: autoApprove: .*\(keys: provider, model/.test(e.message),
    );
    assert.throws(() => parseRunArgs(['run', '--config', config({ maxTurns: -1 }), 't'], dir), /maxTurns/);
    assert.throws(() => parseRunArgs(['run', '--config', config('{nope'), 't'], dir), /is not JSON/);
    assert.throws(() => parseRunArgs(['run', '--config', path.join(dir, 'none.json'), 't'], dir), /cannot be read \(ENOENT\)/);
  });
});
