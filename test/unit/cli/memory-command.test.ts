import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { runMemoryCommand } from '../../../src/cli/memory-command.js';

describe('keel memory', () => {
  let dir: string;
  let ws: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-memcli-'));
    ws = fs.mkdtempSync(path.join(dir, 'ws-'));
    fs.writeFileSync(path.join(ws, 'a.ts'), 'x');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function keel(...argv: string[]): Promise<string> {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c) => (text += c));
    await runMemoryCommand(argv, {
      stdout: out,
      cwd: ws,
      env: { XDG_CONFIG_HOME: path.join(dir, 'config') },
      now: () => 1_800_000_000_000,
    });
    return text;
  }

  it('adds, lists and forgets over the store the tools use, outside the workspace', async () => {
    const added = await keel('add', '--tag', 'tests', '--path', 'a.ts', 'Run the tests with npm test.');
    const id = /Remembered (\S+) \(workspace\)/.exec(added)![1]!;
    const listed = await keel('list');
    assert.match(listed, new RegExp(`${id}  \\[workspace, stated by user, added by hand, 0 d old\\]`));
    assert.match(listed, /files: a\.ts/);
    assert.deepEqual(fs.readdirSync(ws), ['a.ts'], 'nothing written into the workspace');
    assert.equal(await keel('forget', id), `Forgot ${id}.\n`);
    assert.equal(await keel('list'), 'No memories.\n');
  });

  it('refuses a secret and an unknown id with clear errors', async () => {
    await assert.rejects(keel('add', 'password=hunter2'), /never hold secrets/);
    await assert.rejects(keel('forget', 'nope'), /No memory has the id nope/);
    await assert.rejects(keel('add', '--scope', 'team', 'x'), /--scope must be workspace or user/);
    assert.equal(await keel('list'), 'No memories.\n');
  });
});
