// Issue 25 (hooks) in a real VS Code: a workspace whose .keel/hooks.json holds a PreToolUse hook
// that refuses `rm -rf build`. The user allows the hook definition in the modal (which shows the
// command); the model proposes run_command `rm -rf build`; no approval card appears for it, the
// transcript shows the block, build/ is still there, and the model's next request carries the
// hook's reason. Screenshots with the side bar dragged to ~320 px (it settles at 300): test/e2e/artifacts/hooks-block-rm/.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { chunkText } from '../support/model-turn.js';
import { fixerModel, requestText, streamed } from './lib/fixer-model.js';
import { keelSessions } from './lib/session-hooks.js';

const REASON = 'Deleting build/ is not allowed here (e2e-hook-5c1d): run npm run clean instead.';
const GUARD = `#!/bin/sh
input=$(cat)
case "$input" in
  *'rm -rf build'*) echo "${REASON}" >&2; exit 2 ;;
esac
exit 0
`;

describe('Keel hooks in a real VS Code', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  it('a PreToolUse hook blocks rm -rf build: no approval card, the block shown, build/ kept, the model told why', async () => {
    const session = await sessions.start({
      name: 'hooks-block-rm',
      model: fixerModel((req, index) => {
        if (index === 0)
          return streamed(req, {
            text: chunkText('I will clear the build folder.', 12),
            toolCalls: [{ name: 'run_command', input: { command: 'rm -rf build' } }],
          });
        if (index === 1) return streamed(req, { text: chunkText('Understood: build/ stays.', 12) });
        return undefined;
      }),
      prepare: (folder) => {
        mkdirSync(join(folder, '.keel'), { recursive: true });
        mkdirSync(join(folder, 'build'), { recursive: true });
        writeFileSync(join(folder, 'build', 'bundle.js'), '// built\n');
        writeFileSync(join(folder, '.keel', 'block-rm.sh'), GUARD);
        const hooks = {
          hooks: { PreToolUse: [{ matcher: 'run_command', hooks: [{ type: 'command', command: 'sh .keel/block-rm.sh' }] }] },
        };
        writeFileSync(join(folder, '.keel', 'hooks.json'), JSON.stringify(hooks, null, 2));
      },
    });
    const { view, workbench } = session;
    await view.open();
    // Best effort: where the sash cannot be dragged the view keeps its width (logged below).
    await session.setSideBarWidth(320).catch(() => undefined);
    const width = (await workbench.page.locator('.part.sidebar').first().boundingBox())?.width;
    console.log(`    side bar width: ${width} px`);
    await view.send('Please clean the build folder.');
    // The hooks are read when the message is sent: the user allows that exact definition first.
    await session.answerModal('defines 1 hook', 'Allow hooks', {
      screenshot: 'hooks-question',
      check: (text) => assert.match(text, /PreToolUse \[run_command\]: sh \.keel\/block-rm\.sh/),
    });
    await session.answerKeyQuestion();
    await view.waitForText('build/ stays', 60_000);
    await session.screenshot('blocked-narrow');
    await session.sidebarShot('hooks-blocked-narrow');

    const shown = await view.transcriptText();
    assert.match(shown, /Blocked by a hook: sh \.keel\/block-rm\.sh/);
    assert.ok(shown.includes('e2e-hook-5c1d'), 'the reason is shown');
    assert.deepEqual(
      (await view.intentStatuses()).filter((s) => s === 'awaiting_approval'),
      [],
      'no approval card',
    );
    assert.ok(existsSync(join(session.folder, 'build', 'bundle.js')), 'build/ is still there');
    const next = session.modelRequests()[1];
    assert.ok(next, 'the model is asked again');
    assert.ok(requestText(next).includes('e2e-hook-5c1d'), "the hook's reason is in the model's next request");
  });
});
