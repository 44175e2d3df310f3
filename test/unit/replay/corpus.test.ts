// The replay corpus (test/replay/): every recorded task replays clean through the current build
// from the example it started in, and a starting workspace that differs where the recorded edit
// applied (the injected difference) is reported at the step and seq of that edit.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { CORPUS, CORPUS_DIR, EXAMPLES, type CorpusEntry } from '../../replay/corpus.js';
import { spawnKeel } from '../../support/keel-cli.js';
import { scratchDir } from '../../support/scratch.js';
import { bugLine } from '../../e2e/lib/fixer-model.js';

function startingWorkspace(entry: CorpusEntry): string {
  const ws = path.join(scratchDir('corpus'), 'ws');
  fs.cpSync(path.join(EXAMPLES, entry.example), ws, { recursive: true });
  return ws;
}

function replayArgs(entry: CorpusEntry, ws: string, ...more: string[]): string[] {
  return ['replay', path.join(CORPUS_DIR, entry.log), '--workspace', ws, ...entry.flags, ...more];
}

describe('replay corpus', function () {
  this.timeout(60_000);
  const env = { XDG_CONFIG_HOME: scratchDir('corpus-config'), XDG_CACHE_HOME: scratchDir('corpus-cache') };

  it('holds at least two recorded tasks, one with edits, one with sub-agents', () => {
    assert.ok(CORPUS.length >= 2);
    const events = CORPUS.flatMap((e) => loadLog(path.join(CORPUS_DIR, e.log)).events);
    assert.ok(events.some((e) => e.type === 'intent_proposed' && e.intent.tool === 'edit_file'));
    const delegated = events.filter((e) => e.type === 'frame_started');
    assert.ok(
      delegated.some((e) => e.type === 'frame_started' && e.planTaskId !== undefined),
      'a plan of sub-agents',
    );
    assert.ok(
      delegated.some((e) => e.type === 'frame_started' && e.planTaskId === undefined),
      'a delegated sub-agent',
    );
  });

  for (const entry of CORPUS) {
    it(`${entry.log} replays clean with the current build`, async () => {
      const run = await spawnKeel(replayArgs(entry, startingWorkspace(entry)), EXAMPLES, env);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.match(run.stdout, /^replays clean/);
    });
  }

  it('reports an injected difference (the edited file differs) at the step of the edit', async () => {
    const entry = CORPUS.find((e) => e.log === 'failing-tests-fix.jsonl')!;
    const events = loadLog(path.join(CORPUS_DIR, entry.log)).events;
    const edit = events.find((e) => e.type === 'intent_proposed' && e.intent.tool === 'edit_file')!;
    const turn = events.filter((e) => e.type === 'turn_started' && e.seq < edit.seq).at(-1);
    const ws = startingWorkspace(entry);
    const source = path.join(ws, 'src/price.js');
    fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace(bugLine, 'return Math.trunc((cents * percent) / 100);'));

    const run = await spawnKeel(replayArgs(entry, ws, '--json'), EXAMPLES, env);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const report = JSON.parse(run.stdout) as { differences: { step: number; seq: number; kind: string }[] };
    const edits = report.differences.filter((d) => d.kind === 'edit');
    assert.deepEqual(
      edits.map((d) => [d.step, d.seq]),
      [[turn?.type === 'turn_started' ? turn.turn : -1, edit.seq]],
    );
  });
});
