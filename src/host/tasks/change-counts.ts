// The +/− line counts of a Files changed summary: each file's content before the run (its
// stored bytes) against its content at the end of the run (stored bytes, or the file on disk
// while it still has the hash the run left). A file whose bytes are gone keeps no counts. No
// vscode import.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CheckpointRecord } from '../../kernel/index.js';
import type { ChangesItem } from '../../protocol/index.js';
import { lineCounts, type LineCounts } from '../../tools/index.js';
import { netChanges } from '../presenter/checkpoint-mapper.js';

/** Files larger than this are not diffed for a summary (the counts would cost more than they tell). */
const MAX_COUNTED_BYTES = 2 * 1024 * 1024;

export interface CountSource {
  root: string;
  read(hash: string): Promise<Uint8Array | undefined>;
  hashes(paths: readonly string[]): Promise<Record<string, string | null>>;
}

/** The summary with counts for every file whose before and after bytes are at hand. */
export async function withLineCounts(
  item: ChangesItem,
  checkpoints: readonly CheckpointRecord[],
  source: CountSource,
): Promise<ChangesItem> {
  const inRun = checkpoints.filter((c) => c.kind === 'step' && c.seq >= item.fromSeq && c.seq <= item.toSeq);
  const net = new Map(netChanges(inRun.flatMap((c) => c.files)).map((f) => [f.path, f]));
  const now = await source.hashes([...net.keys()]);
  const files = [];
  for (const file of item.files) {
    const change = net.get(file.path);
    const counts = change ? await countsOf(change, now[change.path] ?? null, source) : undefined;
    files.push(counts ? { ...file, ...counts } : file);
  }
  return { ...item, files };
}

async function countsOf(
  change: { path: string; before: string | null; after: string | null },
  hashNow: string | null,
  source: CountSource,
): Promise<LineCounts | undefined> {
  const before = await bytesOf(change.before, source);
  const after = (await bytesOf(change.after, source)) ?? (hashNow === change.after ? await disk(source.root, change.path) : undefined);
  if (before === undefined || after === undefined) return undefined;
  if (before.length > MAX_COUNTED_BYTES || after.length > MAX_COUNTED_BYTES) return undefined;
  const decode = (b: Uint8Array) => new TextDecoder('utf-8').decode(b);
  return lineCounts(decode(before), decode(after));
}

async function bytesOf(hash: string | null, source: CountSource): Promise<Uint8Array | undefined> {
  return hash === null ? new Uint8Array() : source.read(hash);
}

async function disk(root: string, rel: string): Promise<Uint8Array | undefined> {
  return fs.readFile(path.join(root, rel)).catch(() => undefined);
}
