// Wiping a process's own environment block: after it, /proc/PID/environ (read by another process,
// as a command would) holds neither the provider key nor a credential the detector picks, while
// process.env still gives both — Keel reads its key as before — and the other variables are there
// in both. A helper's environment (`withoutCredentials`) leaves them out. Real processes, real /proc.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const MODULE = path.resolve(__dirname, '../../../src/node/environment-block.ts');
const TSX = pathToFileURL(require.resolve('tsx')).href;
const KEY = `sk-ant-api03-${'q'.repeat(24)}`;
const TOKEN = `tok-${'z'.repeat(24)}`;

/** A child that wipes its block (or not), then has `cat` read it from outside. */
function child(wipe: boolean) {
  const script = `
    const { execFileSync } = require('node:child_process');
    const { wipeCredentialsFromBlock, withoutCredentials } = require(${JSON.stringify(MODULE)});
    {
      const outcome = ${wipe} ? wipeCredentialsFromBlock((name) => name === 'DEPLOY_TOKEN') : { wiped: [] };
      const block = execFileSync('cat', ['/proc/' + process.pid + '/environ']).toString('latin1');
      const helper = withoutCredentials();
      console.log(JSON.stringify({ outcome, block, env: process.env, helper: Object.keys(helper) }));
    }`;
  const r = spawnSync(process.execPath, ['--import', TSX, '-e', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ANTHROPIC_API_KEY: KEY, DEPLOY_TOKEN: TOKEN, HARMLESS: 'kept' },
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as {
    outcome: { wiped: string[]; problem?: string };
    block: string;
    env: Record<string, string>;
    helper: string[];
  };
}

describe('a process wipes its own environment block', function () {
  this.timeout(30_000);
  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  it('unwiped, the block another process reads holds the key (the yardstick)', () => {
    const { block } = child(false);
    assert.ok(block.includes(KEY) && block.includes(TOKEN));
  });

  it('wiped, the block holds neither; process.env still has both; a helper gets neither', () => {
    const { outcome, block, env, helper } = child(true);
    assert.deepEqual(outcome.wiped.sort(), ['ANTHROPIC_API_KEY', 'DEPLOY_TOKEN']);
    assert.equal(outcome.problem, undefined);
    assert.ok(!block.includes(KEY), 'the key is still in the block');
    assert.ok(!block.includes(TOKEN), 'the token is still in the block');
    assert.ok(block.includes('HARMLESS=kept'), 'the other variables stay');
    assert.equal(env.ANTHROPIC_API_KEY, KEY);
    assert.equal(env.DEPLOY_TOKEN, TOKEN);
    assert.equal(env.HARMLESS, 'kept');
    assert.ok(helper.includes('HARMLESS') && !helper.includes('ANTHROPIC_API_KEY') && !helper.includes('DEPLOY_TOKEN'), helper.join(','));
  });
});
