// `keel replay` with sub-agents: each frame plays its own recorded turns through the current
// build (the plan's two children ran side by side and interleave in the log), a fresh recording
// replays clean, and a difference inside a child frame is reported at that frame's step, with
// the frame named.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RuntimeEvent } from '../../../src/kernel/index.js';
import { replayLog } from '../../../src/compose/replay/replay.js';
import { loadLog } from '../../../src/node/jsonl-store.js';
import { CORPUS_DIR, EXAMPLES } from '../../replay/corpus.js';
import { recordSubagentsTask } from '../../replay/subagents-task.js';
import { scratchDir } from '../../support/scratch.js';

function start(): string {
  const ws = path.join(scratchDir('replay-frames'), 'ws');
  fs.cpSync(path.join(EXAMPLES, 'failing-tests'), ws, { recursive: true });
  return ws;
}

/** The recorded frame whose brief starts with `agent`, and its first proposed call. */
function childCall(events: readonly RuntimeEvent[], agent: string) {
  const started = events.find((e) => e.type === 'frame_started' && e.task.startsWith(agent))!;
  const call = events.find((e) => e.type === 'intent_proposed' && e.frame === started.frame)!;
  return { frame: started.frame!, seq: call.seq };
}

describe('keel replay with sub-agents', function () {
  this.timeout(30_000);

  it('a fresh recording with a delegate and a two-task plan replays clean, every frame played', async () => {
    const events = await recordSubagentsTask(start());
    assert.equal(events.filter((e) => e.type === 'frame_started').length, 3);
    const report = await replayLog(events, start());
    assert.deepEqual(report.differences, []);
    assert.equal(report.steps, 9, 'three turns of the task and two of each child');
    assert.equal(report.calls, 5);
  });

  it('reports a difference inside a plan task at its step, naming the frame', async () => {
    const events = loadLog(path.join(CORPUS_DIR, 'failing-tests-subagents.jsonl')).events;
    const ws = start();
    fs.appendFileSync(path.join(ws, 'README.md'), '\nA line the recording did not see.\n');
    const report = await replayLog(events, ws);
    const readme = childCall(events, 'README');
    assert.deepEqual(
      report.differences.map((d) => [d.kind, d.tool, d.step, d.seq, d.frame, d.frameName]),
      [['observation', 'read_file', 1, readme.seq, readme.frame, 'plan task readme']],
    );
  });

  it('reports a difference inside a delegated child there only, naming the child by its brief', async () => {
    const events = loadLog(path.join(CORPUS_DIR, 'failing-tests-subagents.jsonl')).events;
    const ws = start();
    fs.appendFileSync(path.join(ws, 'src/price.js'), '\n// changed after the recording\n');
    const report = await replayLog(events, ws);
    const reader = childCall(events, 'READER');
    assert.deepEqual(
      report.differences.map((d) => [d.tool, d.step, d.seq, d.frame]),
      [['read_file', 1, reader.seq, reader.frame]],
    );
    assert.match(report.differences[0]!.frameName ?? '', /^sub-agent "READER read src\/price\.js/);
  });
});
