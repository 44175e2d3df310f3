// The replay corpus: recorded task logs (test/replay/*.jsonl) with the example each task started
// from and the flags it ran with, listed in corpus.json. Recorded by scripts/record-replay-corpus.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface CorpusEntry {
  log: string;
  /** The folder under examples/ the task started from. */
  example: string;
  task: string;
  /** keel run's policy flags, which keel replay takes too. */
  flags: string[];
}

export const CORPUS_DIR = __dirname;
export const EXAMPLES = path.resolve(__dirname, '../../examples');
export const CORPUS = JSON.parse(fs.readFileSync(path.join(__dirname, 'corpus.json'), 'utf8')) as CorpusEntry[];
