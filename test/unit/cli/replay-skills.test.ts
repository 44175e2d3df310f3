// `keel replay` of a task that used a workspace skill: use_skill and the gate it set replay clean
// over the same skill, and a skill whose instructions changed since is reported at that call.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { replayLog } from '../../../src/compose/replay/replay.js';
import { composeRuntime } from '../../../src/compose/runtime.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';

function workspaceWithSkill(name: string, instructions: string): string {
  const root = scratchDir(name);
  fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
  fs.mkdirSync(path.join(root, '.keel/skills/look'), { recursive: true });
  fs.writeFileSync(
    path.join(root, '.keel/skills/look/SKILL.md'),
    `---\nname: look\ndescription: d\ntools: [read_file]\n---\n${instructions}\n`,
  );
  return root;
}

async function record(root: string) {
  const provider = new ScriptedProvider([
    toolTurn('use_skill', { name: 'look' }),
    toolTurn('write_file', { path: 'b.txt', content: 'x' }, '', 'c2'),
    toolTurn('read_file', { path: 'a.txt' }, '', 'c3'),
    textTurn('done'),
  ]);
  const runtime = composeRuntime({
    provider,
    settings: { maxTurns: 8, autoApprove: ['read', 'write'], commandsAllow: [], commandsDeny: [] },
    workspace: await createNodeWorkspace(root),
    trusted: () => true,
    interactive: false,
    skills: {},
  });
  for await (const _ of runtime.send('look')) {
    // drain
  }
  return runtime.getEvents();
}

describe('keel replay with skills', function () {
  this.timeout(30_000);

  it('replays use_skill and its gate clean, and reports a skill that changed', async () => {
    const events = await record(workspaceWithSkill('replay-skill-rec', 'Only look.'));
    assert.deepEqual((await replayLog(events, workspaceWithSkill('replay-skill-same', 'Only look.'))).differences, []);
    const changed = await replayLog(events, workspaceWithSkill('replay-skill-changed', 'Look, then write.'));
    assert.deepEqual(
      changed.differences.map((d) => [d.tool, d.kind]),
      [['use_skill', 'observation']],
    );
  });
});
