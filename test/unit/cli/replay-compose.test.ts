// Issue 24 item 6: replay runs through composeRuntime, so a recorded task replays with what a
// task really gets. A task that remembered and recalled replays clean (before, replay built its
// own runtime without memory and reported both calls as differences), and the replay's memory
// is its own: the memories of the recording are neither read nor changed.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replayLog } from '../../../src/compose/replay/replay.js';
import { composeRuntime } from '../../../src/compose/runtime.js';
import { JsonlMemoryStore, memoryFilesIn } from '../../../src/node/memory-store.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';

async function recordWithMemory(root: string, memoryDir: string) {
  const store = JsonlMemoryStore.open(memoryFilesIn(memoryDir, root));
  const provider = new ScriptedProvider([
    toolTurn('remember', { text: 'Build with make.' }),
    toolTurn('recall', { query: 'make' }, '', 'c2'),
    textTurn('done'),
  ]);
  const runtime = composeRuntime({
    provider,
    settings: { maxTurns: 8, autoApprove: ['read', 'write'], autoApproveMemory: true, commandsAllow: [], commandsDeny: [] },
    workspace: await createNodeWorkspace(root),
    trusted: () => true,
    interactive: false,
    memory: { store, taskId: 'recorded' },
  });
  for await (const _ of runtime.send('note how to build')) {
    // drain
  }
  return runtime.getEvents();
}

describe('keel replay through composeRuntime (issue 24 item 6)', function () {
  this.timeout(30_000);

  it('replays remember and recall clean, in a memory of its own', async () => {
    const root = scratchDir('replay-memory');
    fs.writeFileSync(path.join(root, 'Makefile'), 'all:\n\ttrue\n');
    const memoryDir = fs.mkdtempSync(path.join(os.tmpdir(), 'keel-replay-memory-test-'));
    const events = await recordWithMemory(root, memoryDir);
    const observations = events.flatMap((e) => (e.type === 'observation' ? [e.observation.ok] : []));
    assert.deepEqual(observations, [true, true], 'the recording remembered and recalled');
    const before = fs.readdirSync(memoryDir, { recursive: true }).map(String).sort();
    const files = before.map((f) => [
      f,
      fs.statSync(path.join(memoryDir, f)).isFile() ? fs.readFileSync(path.join(memoryDir, f), 'utf8') : '',
    ]);

    const report = await replayLog(events, root, Number.POSITIVE_INFINITY, {
      autoApprove: ['read', 'write'],
      approveUnclassified: false,
      autoApproveMemory: true,
      commandsAllow: [],
      commandsDeny: [],
    });
    assert.equal(report.calls, 2);
    assert.deepEqual(report.differences, []);
    const after = fs.readdirSync(memoryDir, { recursive: true }).map(String).sort();
    assert.deepEqual(after, before);
    for (const [f, text] of files) if (text) assert.equal(fs.readFileSync(path.join(memoryDir, f!), 'utf8'), text, f);
  });
});
