import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { contentHash } from '../../../src/kernel/index.js';
import { editFileTool } from '../../../src/tools/edit-file.js';
import { readFileTool } from '../../../src/tools/read-file.js';
import { writeFileTool } from '../../../src/tools/write-file.js';
import { context, readVersions, tempWorkspace, type TempWorkspace } from './helpers.js';

describe('read_file / edit_file / write_file', () => {
  let t: TempWorkspace;
  const big = `${Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}`).join('\n')}\n`;
  beforeEach(async () => {
    t = await tempWorkspace({
      'src/a.ts': 'export const a = 1;\nexport const b = 2;\n',
      'crlf.txt': 'one\r\ntwo\r\n',
      'bin.dat': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]),
      'big.txt': big,
    });
  });
  afterEach(() => t.cleanup());

  it('read_file numbers lines and records the content hash', async () => {
    const r = await readFileTool.execute({ path: 'src/a.ts' }, context(t.ws));
    assert.equal(r.ok, true);
    assert.match(r.content, /^src\/a\.ts — 2 lines, UTF-8, LF\n1 \| export const a = 1;\n2 \| export const b = 2;$/);
    assert.deepEqual(r.fileVersions, { 'src/a.ts': contentHash(await readFile(path.join(t.dir, 'src/a.ts'))) });
  });

  it('read_file pages a large file within its budget and says how to read on', async () => {
    const r = await readFileTool.execute({ path: 'big.txt' }, context(t.ws));
    assert.ok(r.content.length <= readFileTool.outputBudgetTokens * 4, `content ${r.content.length} chars`);
    const next = Number(/call read_file with startLine: (\d+)/.exec(r.content)?.[1]);
    assert.ok(next > 100 && next < 5000);
    const page2 = await readFileTool.execute({ path: 'big.txt', startLine: next }, context(t.ws));
    assert.match(page2.content, new RegExp(`\\n *${next} \\| line ${next} `));
  });

  it('read_file refuses binary files with a clear error', async () => {
    const r = await readFileTool.execute({ path: 'bin.dat' }, context(t.ws));
    assert.equal(r.ok, false);
    assert.match(r.content, /binary file/);
  });

  it('read_file reports a missing file as not_found', async () => {
    const r = await readFileTool.execute({ path: 'nope.ts' }, context(t.ws));
    assert.equal(r.code, 'not_found');
  });

  it('edit_file applies, writes, returns the diff, data and the new version', async () => {
    const versions = await readVersions(t.ws, 'src/a.ts');
    const r = await editFileTool.execute(
      { path: 'src/a.ts', edits: [{ search: 'export const b = 2;', replace: 'export const b = 3;' }] },
      context(t.ws, versions),
    );
    assert.equal(r.ok, true, r.content);
    const now = await readFile(path.join(t.dir, 'src/a.ts'));
    assert.equal(now.toString(), 'export const a = 1;\nexport const b = 3;\n');
    assert.match(r.content, /-export const b = 2;\n\+export const b = 3;/);
    assert.deepEqual(r.fileVersions, { 'src/a.ts': contentHash(now) });
    const data = r.data as { path: string; diff: string; before: string; after: string };
    assert.equal(data.path, 'src/a.ts');
    assert.equal(data.after, now.toString());
    assert.equal(data.before, 'export const a = 1;\nexport const b = 2;\n');
  });

  it('edit_file leaves the file byte-identical when one block is missing or ambiguous', async () => {
    const versions = await readVersions(t.ws, 'src/a.ts');
    const before = await readFile(path.join(t.dir, 'src/a.ts'));
    for (const edits of [
      [
        { search: 'export const a = 1;', replace: 'A' },
        { search: 'const c', replace: 'C' },
      ],
      [{ search: 'export const', replace: 'X' }],
    ]) {
      const r = await editFileTool.execute({ path: 'src/a.ts', edits }, context(t.ws, versions));
      assert.equal(r.ok, false);
      assert.equal(r.code, 'invalid_input');
      assert.deepEqual(await readFile(path.join(t.dir, 'src/a.ts')), before);
    }
  });

  it('edit_file refuses a file never read, attaching its content and version', async () => {
    const r = await editFileTool.execute({ path: 'src/a.ts', edits: [{ search: 'a = 1', replace: 'a = 5' }] }, context(t.ws));
    assert.equal(r.code, 'stale');
    assert.match(r.content, /read the file first/);
    assert.match(r.content, /1 \| export const a = 1;/);
    assert.ok(r.fileVersions?.['src/a.ts']);
    assert.equal((await readFile(path.join(t.dir, 'src/a.ts'))).toString(), 'export const a = 1;\nexport const b = 2;\n');
  });

  it('edit_file refuses a file changed since the last read, then works with the attached version', async () => {
    const versions = await readVersions(t.ws, 'src/a.ts');
    await writeFile(path.join(t.dir, 'src/a.ts'), 'export const a = 100;\n');
    const r = await editFileTool.execute({ path: 'src/a.ts', edits: [{ search: 'a = 100', replace: 'a = 5' }] }, context(t.ws, versions));
    assert.equal(r.code, 'stale');
    assert.match(r.content, /changed since you last read it/);
    assert.match(r.content, /1 \| export const a = 100;/);
    const retry = await editFileTool.execute(
      { path: 'src/a.ts', edits: [{ search: 'a = 100', replace: 'a = 5' }] },
      context(t.ws, r.fileVersions),
    );
    assert.equal(retry.ok, true, retry.content);
  });

  it('edit_file keeps CRLF bytes', async () => {
    const versions = await readVersions(t.ws, 'crlf.txt');
    const r = await editFileTool.execute({ path: 'crlf.txt', edits: [{ search: 'two', replace: 'two\nthree' }] }, context(t.ws, versions));
    assert.equal(r.ok, true, r.content);
    assert.equal((await readFile(path.join(t.dir, 'crlf.txt'))).toString(), 'one\r\ntwo\r\nthree\r\n');
  });

  it('write_file creates new files (and folders) with a diff', async () => {
    const r = await writeFileTool.execute({ path: 'new/dir/f.txt', content: 'hello\n' }, context(t.ws));
    assert.equal(r.ok, true, r.content);
    assert.equal((await readFile(path.join(t.dir, 'new/dir/f.txt'))).toString(), 'hello\n');
    assert.match(r.content, /--- \/dev\/null\n\+\+\+ b\/new\/dir\/f\.txt\n@@ -0,0 \+1,1 @@\n\+hello/);
  });

  it('write_file refuses to overwrite an unread file, and overwrites a read one keeping CRLF', async () => {
    const refused = await writeFileTool.execute({ path: 'crlf.txt', content: 'x\n' }, context(t.ws));
    assert.equal(refused.code, 'stale');
    assert.equal((await readFile(path.join(t.dir, 'crlf.txt'))).toString(), 'one\r\ntwo\r\n');
    const versions = await readVersions(t.ws, 'crlf.txt');
    const r = await writeFileTool.execute({ path: 'crlf.txt', content: 'x\ny\n' }, context(t.ws, versions));
    assert.equal(r.ok, true, r.content);
    assert.equal((await readFile(path.join(t.dir, 'crlf.txt'))).toString(), 'x\r\ny\r\n');
  });

  it('tools refuse paths outside the workspace', async () => {
    for (const p of ['../outside.txt', '/etc/passwd']) {
      const r = await readFileTool.execute({ path: p }, context(t.ws));
      assert.equal(r.code, 'permission_denied', p);
      const w = await writeFileTool.execute({ path: p, content: 'x' }, context(t.ws));
      assert.equal(w.code, 'permission_denied', p);
    }
  });
});
