import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { keelConfigDir } from '../../../src/node/config-folder.js';
import { userSkillsDir } from '../../../src/node/skill-folder.js';
import { cliMemoryFiles } from '../../../src/node/memory-store.js';
import { a2aFiles } from '../../../src/compose/protocols.js';
import { mcpFiles } from '../../../src/compose/mcp.js';

describe("node/config-folder: Keel's folder in the user's config", () => {
  it('is $XDG_CONFIG_HOME/keel when absolute, else ~/.config/keel (a relative one is ignored)', () => {
    assert.equal(keelConfigDir({ XDG_CONFIG_HOME: '/cfg' }), path.join('/cfg', 'keel'));
    assert.equal(keelConfigDir({ XDG_CONFIG_HOME: 'relative/cfg' }), path.join(os.homedir(), '.config', 'keel'));
    assert.equal(keelConfigDir({}), path.join(os.homedir(), '.config', 'keel'));
  });

  it('holds the skills, the memory, mcp.json and a2a.json the CLI and the extension both read', () => {
    const env = { XDG_CONFIG_HOME: '/cfg' };
    const dir = keelConfigDir(env);
    assert.equal(userSkillsDir(env), path.join(dir, 'skills'));
    assert.equal(path.dirname(cliMemoryFiles(undefined, env).user), path.join(dir, 'memory'));
    assert.equal(a2aFiles(undefined, env)[0]?.path, path.join(dir, 'a2a.json'));
    assert.equal(mcpFiles(undefined, env)[0]?.path, path.join(dir, 'mcp.json'));
  });
});
