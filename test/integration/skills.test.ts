// Skills in the real extension host: the Skills view lists a skill written into .keel/skills
// and a broken one with its line, a task's use_skill call gates the next request to the skill's
// tools, and Keel: New Skill writes, opens and lists a new one.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ScriptedProvider, textTurn, toolTurn } from '../../src/providers/scripted.js';
import { keelApi, until, workspaceRoot } from './keel-api.js';

describe('Keel skills', function () {
  this.timeout(90_000);

  it('lists the workspace skills in the Skills view, and gates a task to a skill’s tools', async () => {
    const api = await keelApi();
    const dir = path.join(workspaceRoot().fsPath, '.keel', 'skills');
    fs.mkdirSync(path.join(dir, 'look-only'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'look-only', 'SKILL.md'),
      '---\nname: look-only\ndescription: Read, never write.\ntools: [read_file]\n---\nRead the files.\n',
    );
    fs.mkdirSync(path.join(dir, 'broken'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'broken', 'SKILL.md'), '---\nname: broken\ndescription: "unclosed\n---\n');
    try {
      // The view reads the folders each time it is asked (its file watcher asks it to redraw).
      const items = await api.skills.getChildren();
      const labels = items.map((i) => ({ label: String(i.label), description: String(i.description ?? '') }));
      if (!vscode.workspace.isTrusted) {
        assert.ok(
          labels.some((l) => /Restricted Mode/.test(l.label)),
          JSON.stringify(labels),
        );
        return;
      }
      assert.ok(
        labels.some((l) => l.label === 'look-only' && l.description === 'workspace'),
        JSON.stringify(labels),
      );
      const broken = items.find((i) => i.label === 'broken');
      assert.match(String(broken?.tooltip), /broken\/SKILL\.md:3: invalid YAML/);

      const provider = new ScriptedProvider([
        toolTurn('use_skill', { name: 'look-only' }),
        toolTurn('write_file', { path: 'skill-made.txt', content: 'x' }, '', 'call_w'),
        textTurn('done'),
      ]);
      api.setProviderOverride(() => provider);
      await api.session.newTask();
      const task = await api.session.send('Look at the code with the look-only skill.');
      await until('the run to finish', () => task.getState().status === 'completed' || task.getState().status === 'failed');
      assert.deepEqual(provider.requests[1]?.tools.map((t) => t.name).sort(), ['read_file', 'use_skill']);
      const refused = task
        .getState()
        .messages.find((m) => m.type === 'observation' && m.observation.content.includes('write_file is not available'));
      assert.ok(refused, 'the write_file call was not refused');
      assert.equal(fs.existsSync(path.join(workspaceRoot().fsPath, 'skill-made.txt')), false);

      // Keel: New Skill (given the name the input box would ask for) writes, opens and lists it.
      const made = await vscode.commands.executeCommand<vscode.Uri | undefined>('keel.newSkill', 'made-here');
      assert.equal(made?.fsPath, path.join(dir, 'made-here', 'SKILL.md'));
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, made?.fsPath);
      await until('the new skill in the view', async () =>
        (await api.skills.getChildren()).some((i) => i.label === 'made-here' && i.description === 'workspace'),
      );
      const again = await vscode.commands.executeCommand<vscode.Uri | undefined>('keel.newSkill', 'made-here');
      assert.equal(again, undefined, 'a second skill of the same name was written');
    } finally {
      api.setProviderOverride(undefined);
      fs.rmSync(path.join(workspaceRoot().fsPath, '.keel'), { recursive: true, force: true });
    }
  });
});
