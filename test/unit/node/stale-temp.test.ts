// Keel's temporary files (issue 22, item 1): a real process killed with SIGKILL in the middle of
// an atomic write leaves its temp file; list_files and search_files never show it or its bytes,
// the target keeps its old content whole, and the next run's sweep removes the file because its
// writer is dead — while a live writer's file is left alone unless it is older than any write.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sweepStaleTemps } from '../../../src/compose/index.js';
import { isKeelTempPath } from '../../../src/kernel/index.js';
import { keelTempName } from '../../../src/kernel/temp-files.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { sweepStaleTempFiles } from '../../../src/node/stale-temp.js';
import { listFilesTool } from '../../../src/tools/list-files.js';
import { searchFilesTool } from '../../../src/tools/search-files.js';
import { searchByWalking } from '../../../src/tools/search/walking-search.js';
import { scratchDir } from '../../support/scratch.js';
import { context } from '../tools/helpers.js';

const TSX = pathToFileURL(require.resolve('tsx')).href;
const WRITER = path.resolve(__dirname, '../../fixtures/faults/atomic-writer.ts');

/** Starts a writer and SIGKILLs it as soon as its temp file exists; the temp file's name, or undefined if the write won the race. */
async function killMidWrite(root: string, target: string): Promise<string | undefined> {
  const child = spawn(process.execPath, [`--import=${TSX}`, WRITER, path.join(root, target), '384'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let temp: string | undefined;
  // Killed once the temp file holds some of the new bytes: the write is under way.
  const writing = (n: string) =>
    n.startsWith(`.${target}.keel-`) && (fs.statSync(path.join(root, n), { throwIfNoEntry: false })?.size ?? 0) > 0;
  while (!temp && child.exitCode === null) {
    temp = fs.readdirSync(root).find(writing);
    if (!temp) await new Promise((r) => setTimeout(r, 2));
  }
  child.kill('SIGKILL');
  await exited;
  return fs.readFileSync(path.join(root, target), 'utf8') === 'the old content\n' && temp && fs.existsSync(path.join(root, temp))
    ? temp
    : undefined;
}

describe('Keel temporary files after a crash', () => {
  it('a write killed by SIGKILL leaves a temp file that list and search never show, and the next run removes it', async function () {
    this.timeout(60_000);
    const root = scratchDir('temp-crash');
    fs.writeFileSync(path.join(root, 'data.txt'), 'the old content\n');
    let temp: string | undefined;
    for (let attempt = 0; attempt < 3 && !temp; attempt++) {
      fs.writeFileSync(path.join(root, 'data.txt'), 'the old content\n');
      temp = await killMidWrite(root, 'data.txt');
    }
    assert.ok(temp, 'the writer was killed while its temp file existed');
    assert.ok(fs.statSync(path.join(root, temp)).size > 0, 'the temp file holds part of the new content');
    assert.equal(fs.readFileSync(path.join(root, 'data.txt'), 'utf8'), 'the old content\n', 'the target is untouched');

    const ws = await createNodeWorkspace(root, { rgPath: null, fallbackSearch: searchByWalking });
    const listed = await listFilesTool.execute({ recursive: true }, context(ws));
    assert.equal(listed.content, 'data.txt');
    const searched = await searchFilesTool.execute({ query: 'NEEDLE' }, context(ws));
    assert.match(searched.content, /^No matches/);
    const withRg = await createNodeWorkspace(root, { fallbackSearch: searchByWalking });
    assert.match((await searchFilesTool.execute({ query: 'NEEDLE' }, context(withRg))).content, /^No matches/);

    assert.deepEqual(await sweepStaleTemps(root), [temp]);
    assert.deepEqual(fs.readdirSync(root), ['data.txt']);
  });

  it('keeps a live writer’s fresh temp file, removes a dead writer’s, and an hour-old one whatever its pid', async () => {
    const root = scratchDir('temp-sweep');
    fs.mkdirSync(path.join(root, 'src'));
    const dead = `src/${keelTempName('a.ts', 4_000_001, 'aa')}`;
    const live = `src/${keelTempName('b.ts', process.ppid, 'bb')}`;
    const old = `src/${keelTempName('c.ts', process.ppid, 'cc')}`;
    const mine = `src/${keelTempName('d.ts', process.pid, 'dd')}`;
    for (const rel of [dead, live, old, mine, 'src/.hidden.tmp']) fs.writeFileSync(path.join(root, rel), 'partial');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(path.join(root, old), twoHoursAgo, twoHoursAgo);
    const removed = await sweepStaleTempFiles(root, { alive: (pid) => pid !== 4_000_001 });
    assert.deepEqual(removed.sort(), [dead, mine, old].sort(), 'this process writes nothing now: its leftover is stale too');
    assert.deepEqual(fs.readdirSync(path.join(root, 'src')).sort(), ['.hidden.tmp', keelTempName('b.ts', process.ppid, 'bb')].sort());
  });

  it('names temp files in one place: the writer’s name is the one walkers skip', () => {
    assert.equal(isKeelTempPath(`dir/${keelTempName('x.json', 12, '0a1b')}`), true);
    assert.equal(isKeelTempPath('dir/.x.json.tmp'), false);
    assert.equal(isKeelTempPath('dir/x.keel-12-0a1b.tmp'), false);
  });
});
