import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkspaceError } from '../../../src/kernel/index.js';
import { createNodeWorkspace, type NodeWorkspace } from '../../../src/node/node-workspace.js';

describe('Node workspace: boundary and files', () => {
  let base: string;
  let root: string;
  let ws: NodeWorkspace;
  const outside = async (p: string) => {
    await assert.rejects(ws.resolve(p), (e: unknown) => e instanceof WorkspaceError && e.code === 'outside_workspace', p);
  };

  beforeEach(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'keel-ws-'));
    root = path.join(base, 'ws');
    await mkdir(path.join(root, 'src'), { recursive: true });
    await mkdir(path.join(base, 'ws-evil'));
    await writeFile(path.join(base, 'ws-evil', 'secret.txt'), 'secret');
    await writeFile(path.join(base, 'outside.txt'), 'outside');
    await writeFile(path.join(root, 'src', 'a.ts'), 'a');
    await symlink(path.join(base, 'outside.txt'), path.join(root, 'link-out'));
    await symlink(base, path.join(root, 'dir-out'));
    await symlink(path.join(base, 'not-yet.txt'), path.join(root, 'dangling'));
    await symlink(path.join(root, 'src'), path.join(root, 'src-link'));
    ws = await createNodeWorkspace(root);
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('resolves inside paths to canonical relative ones', async () => {
    assert.equal(await ws.resolve('src/a.ts'), 'src/a.ts');
    assert.equal(await ws.resolve('./src/../src/a.ts'), 'src/a.ts');
    assert.equal(await ws.resolve(path.join(root, 'src', 'a.ts')), 'src/a.ts');
    assert.equal(await ws.resolve('src-link/a.ts'), 'src/a.ts');
    assert.equal(await ws.resolve('src/new/file.ts'), 'src/new/file.ts');
    assert.equal(await ws.resolve('.'), '');
  });

  it('refuses .., absolute paths, symlinks out and a sibling sharing the prefix', async () => {
    await outside('../outside.txt');
    await outside('src/../../outside.txt');
    await outside(path.join(base, 'outside.txt'));
    await outside('/etc/passwd');
    await outside('link-out');
    await outside('dir-out/outside.txt');
    await outside('dir-out/ws-evil/secret.txt');
    await outside('../ws-evil/secret.txt');
    await outside(path.join(base, 'ws-evil', 'secret.txt'));
  });

  it('refuses a dangling symlink whose target is outside, so a write cannot create it', async () => {
    await outside('dangling');
    await assert.rejects(ws.writeFile('dangling', new TextEncoder().encode('x')));
    await assert.rejects(stat(path.join(base, 'not-yet.txt')));
  });

  it('detects a case-sensitive file system here', async () => {
    assert.equal(ws.caseInsensitive, process.platform === 'darwin' || process.platform === 'win32');
  });

  it('writes atomically, keeping the file mode and leaving no temp file', async () => {
    const file = path.join(root, 'src', 'run.sh');
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, 0o755);
    await ws.writeFile('src/run.sh', new TextEncoder().encode('#!/bin/sh\necho hi\n'));
    assert.equal((await stat(file)).mode & 0o777, 0o755);
    assert.equal(await readFile(file, 'utf8'), '#!/bin/sh\necho hi\n');
    assert.deepEqual(
      (await readdir(path.join(root, 'src'))).filter((n) => n.includes('keel')),
      [],
    );
  });

  it('creates parent folders and lists entries, with symlinks as "other"', async () => {
    await ws.writeFile('deep/er/f.txt', new Uint8Array([104, 105]));
    assert.equal(await readFile(path.join(root, 'deep/er/f.txt'), 'utf8'), 'hi');
    const entries = await ws.readDir('');
    assert.deepEqual(
      entries.find((e) => e.path === 'link-out'),
      { path: 'link-out', type: 'other' },
    );
    assert.deepEqual(
      entries.find((e) => e.path === 'src'),
      { path: 'src', type: 'directory' },
    );
  });

  it('maps missing files to not_found', async () => {
    await assert.rejects(ws.readFile('nope.txt'), (e: unknown) => e instanceof WorkspaceError && e.code === 'not_found');
    assert.equal(await ws.stat('nope.txt'), undefined);
  });
});

describe('Node workspace: search without ripgrep', () => {
  it('fails with one line when the host gave no other search', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'keel-ws-'));
    try {
      await writeFile(path.join(root, 'a.ts'), 'needle');
      const ws = await createNodeWorkspace(root, { rgPath: null });
      const query = { pattern: 'needle', files: ['a.ts'], maxMatches: 10 };
      await assert.rejects(ws.search(query, new AbortController().signal), (e: unknown) => {
        return e instanceof WorkspaceError && e.code === 'io_error' && /ripgrep was not found/.test(e.message);
      });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
