// `keel serve` refuses at start what would fail every task sent to it: a --workspace that is not
// a folder is exit 2 in one line, before anything listens.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { scratchDir } from '../../support/scratch.js';

const ROOT = path.resolve(__dirname, '../../..');
const TSX = pathToFileURL(require.resolve('tsx')).href;

describe('keel serve at start', () => {
  it('refuses a --workspace that is not a folder, exit 2, without starting', () => {
    const home = scratchDir('serve-start');
    const missing = path.join(home, 'no-such-folder');
    const args = [`--import=${TSX}`, path.join(ROOT, 'src/cli/main.ts'), 'serve', '--a2a', '--workspace', missing];
    const env = {
      ...process.env,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_CACHE_HOME: path.join(home, 'cache'),
      ANTHROPIC_API_KEY: 'k',
    };
    const serve = spawnSync(process.execPath, args, { cwd: home, env, encoding: 'utf8', timeout: 30_000 });
    assert.equal(serve.status, 2, `exit 2, not a server that runs (signal: ${serve.signal})`);
    assert.match(
      serve.stderr,
      /^keel: --workspace .*no-such-folder is not a folder: give the folder this server works on\. \(see `keel serve --help`\)\n$/,
    );
    assert.doesNotMatch(serve.stdout, /A2A agent at/);
  }).timeout(60_000);
});
