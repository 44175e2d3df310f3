import assert from 'node:assert/strict';
import { MemoryRecordSchema, rankMemories, stalePaths, type MemoryRecord } from '../../../src/kernel/index.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = 1_800_000_000_000;

function record(id: string, text: string, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id,
    text,
    scope: 'workspace',
    source: { taskId: 't1', eventSeq: 3, author: 'model' },
    confidence: 'inferred',
    created: NOW - DAY,
    lastUsed: NOW - DAY,
    tags: [],
    paths: [],
    ...extra,
  };
}

describe('memory recall ranking', () => {
  it('ranks by how many of the query words a record shares', () => {
    const hits = rankMemories(
      [record('a', 'The tests run with mocha.'), record('b', 'Unit tests run with mocha and tsx.'), record('c', 'Deploys go through CI.')],
      { text: 'how do unit tests run', limit: 10, now: NOW },
    );
    assert.deepEqual(
      hits.map((h) => h.record.id),
      ['b', 'a'],
      'more shared words first; a record sharing none is left out',
    );
  });

  it('prefers the recently used record when overlap ties', () => {
    const hits = rankMemories(
      [record('old', 'Use pnpm here.', { lastUsed: NOW - 300 * DAY, created: NOW - 300 * DAY }), record('new', 'Use pnpm here.')],
      { text: 'pnpm', limit: 10, now: NOW },
    );
    assert.deepEqual(
      hits.map((h) => h.record.id),
      ['new', 'old'],
    );
  });

  it('lifts records concerning the paths asked about, even without shared words', () => {
    const hits = rankMemories(
      [record('word', 'parser notes'), record('path', 'Keep exports sorted.', { paths: [{ path: 'src/parser.ts', hash: 'h1' }] })],
      { text: 'parser error recovery', limit: 10, paths: ['src/parser.ts'], now: NOW },
    );
    assert.deepEqual(
      hits.map((h) => h.record.id),
      ['path', 'word'],
    );
  });

  it('matches tags as well as text, and keeps to the limit', () => {
    const records = Array.from({ length: 5 }, (_, i) => record(`r${i}`, `note ${i}`, { tags: ['build'] }));
    assert.equal(rankMemories(records, { text: 'build', limit: 3, now: NOW }).length, 3);
  });

  it('leaves expired records out', () => {
    const hits = rankMemories(
      [record('gone', 'release on fridays', { expires: NOW - 1 }), record('kept', 'release on mondays', { expires: NOW + DAY })],
      {
        text: 'release',
        limit: 10,
        now: NOW,
      },
    );
    assert.deepEqual(
      hits.map((h) => h.record.id),
      ['kept'],
    );
  });

  it('names the concerned files whose content changed since', () => {
    const r = record('s', 'x', {
      paths: [
        { path: 'a.ts', hash: 'h1' },
        { path: 'b.ts', hash: 'h2' },
        { path: 'c.ts', hash: null },
        { path: 'd.ts', hash: 'h4' },
      ],
    });
    assert.deepEqual(stalePaths(r, { 'a.ts': 'h1', 'b.ts': 'changed', 'c.ts': 'created since', 'd.ts': null }), ['b.ts', 'c.ts', 'd.ts']);
    assert.deepEqual(stalePaths(r, {}), [], 'unchecked paths are not stale');
  });

  it('refuses text over 1,000 characters in the record schema', () => {
    assert.equal(MemoryRecordSchema.safeParse(record('x', 'a'.repeat(1000))).success, true);
    assert.equal(MemoryRecordSchema.safeParse(record('x', 'a'.repeat(1001))).success, false);
  });
});
