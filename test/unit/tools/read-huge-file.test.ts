// read_file on files too large to hold whole (issue 22, item 3): past 64 MiB the file is paged by
// line range from a stream — the lines asked for, the right line count, the same content hash a
// whole read records (so an edit's staleness check agrees) — and a huge single line is shown cut
// and never counted as read whole.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contentHash } from '../../../src/kernel/index.js';
import { ledgerAfter, emptyLedger } from '../../../src/kernel/context/ledger.js';
import { readFileTool } from '../../../src/tools/read-file.js';
import { context, tempWorkspace, type TempWorkspace } from './helpers.js';

const LINES = 1_100_000;
const lineText = (n: number) => `line ${n}: the quick brown fox jumps over the lazy dog, ${'x'.repeat(n % 7)}`;

describe('read_file on a huge file', function () {
  this.timeout(60_000);
  let t: TempWorkspace;
  before(async () => {
    t = await tempWorkspace();
    const out = fs.openSync(path.join(t.dir, 'huge.log'), 'w');
    let batch: string[] = [];
    for (let n = 1; n <= LINES; n++) {
      batch.push(lineText(n));
      if (batch.length === 50_000 || n === LINES) {
        // The last line has no newline: it is a line all the same.
        fs.writeSync(out, n === LINES ? batch.join('\n') : `${batch.join('\n')}\n`);
        batch = [];
      }
    }
    fs.closeSync(out);
    fs.writeFileSync(path.join(t.dir, 'one-line.min.js'), 'é'.repeat(36 * 1024 * 1024));
  });
  after(() => t.cleanup());

  it('is larger than the whole-read limit', () => {
    assert.ok(fs.statSync(path.join(t.dir, 'huge.log')).size > 64 * 1024 * 1024);
  });

  it('shows exactly the lines asked for, with the line count and the whole file’s hash', async () => {
    const r = await readFileTool.execute({ path: 'huge.log', startLine: 1_000_000, endLine: 1_000_004 }, context(t.ws));
    assert.equal(r.ok, true, r.content);
    const [header, ...rows] = r.content.split('\n');
    assert.match(header!, new RegExp(`^huge\\.log — ${LINES} lines, \\d+ bytes`));
    assert.deepEqual(rows, [
      ...[1_000_000, 1_000_001, 1_000_002, 1_000_003, 1_000_004].map((n) => `${n} | ${lineText(n)}`),
      '[Showing lines 1000000–1000004 of 1100000.]',
    ]);
    const hash = contentHash(fs.readFileSync(path.join(t.dir, 'huge.log')));
    assert.equal(r.fileVersions?.['huge.log'], hash);
    assert.deepEqual(r.facts?.read, { path: 'huge.log', hash, from: 1_000_000, to: 1_000_004, total: LINES });
  });

  it('pages from the top and says how to read on; the last line (no newline) is there', async () => {
    const first = await readFileTool.execute({ path: 'huge.log' }, context(t.ws));
    assert.match(first.content, /\n +1 \| line 1: /);
    assert.match(first.content, /\[Showing lines 1–\d+ of 1100000\. To read on, call read_file with startLine: \d+\.\]$/);
    const last = await readFileTool.execute({ path: 'huge.log', startLine: LINES }, context(t.ws));
    assert.match(last.content, new RegExp(`\\n${LINES} \\| ${lineText(LINES)}$`));
    const past = await readFileTool.execute({ path: 'huge.log', startLine: LINES + 1 }, context(t.ws));
    assert.equal(past.ok, false);
    assert.match(past.content, /has 1100000 lines; startLine 1100001 is past the end/);
  });

  it('shows a huge single line cut, and the ledger never takes that read as whole', async () => {
    const r = await readFileTool.execute({ path: 'one-line.min.js' }, context(t.ws));
    assert.equal(r.ok, true, r.content);
    assert.match(r.content, /^one-line\.min\.js — 1 line, /);
    assert.match(r.content, /1 \| é{2000} … \[line cut: \d+ bytes\]$/);
    assert.equal(r.facts?.read?.cut, true);
    const ledger = ledgerAfter(emptyLedger(), { intentId: 'i', ok: true, content: r.content, facts: r.facts! }, 3);
    assert.equal(ledger.reads['one-line.min.js']?.whole, undefined);
  });
});
