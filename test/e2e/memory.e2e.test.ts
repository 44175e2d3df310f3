// Issue 11 in a real VS Code through a real browser: the user adds a memory by hand (Keel:
// Remember…); a new task's first request carries it in the prompt's memory index; the model
// calls recall and gets it; the user edits, then deletes it in the Memory view; the next task's
// request no longer has it. On the way, the "Rules: AGENTS.md" line under the task header opens the file.
// Screenshots: test/e2e/artifacts/11-memory/.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { TestIds } from '../../src/protocol/test-ids.js';
import type { RecordedRequest, Responder } from '../support/model-server.js';
import { requestText, streamed } from './lib/fixer-model.js';
import { WINDOW_SIZES } from './lib/keel-session.js';
import { keelSessions } from './lib/session-hooks.js';

const MEMORY = 'Run the tests with npm test, never with yarn.';
const EDITED = 'Run the tests with npm test (Node 20), never with yarn.';
const ASK = 'How should I run the tests in this project?';
const ANSWER = 'Your memory says to use npm test here, not yarn.';
const SECOND_ASK = 'Is there anything you remember about this project?';
const NOTHING = 'I remember nothing about this project yet.';

/** Recalls for the first question, answers from the recalled text; answers the second plainly. */
function memoryModel(): Responder {
  return (req: RecordedRequest) => {
    if (req.api === 'unknown') return { type: 'json', status: 404, body: { error: 'not a model endpoint' } };
    const text = requestText(req);
    if (text.includes('tool_result')) return streamed(req, { text: [ANSWER] });
    if (text.includes(ASK))
      return streamed(req, { text: ['Let me check what I remember.'], toolCalls: [{ name: 'recall', input: { query: 'tests' } }] });
    return streamed(req, { text: [NOTHING] });
  };
}

const systemOf = (req: RecordedRequest): string => JSON.stringify(req.body?.system ?? '');

/**
 * Chooses `item` from a tree row's context menu until `appears` shows. The Memory view redraws
 * when its files change (in this window at once, then again when the file watcher reports the
 * same write), and a redraw closes an open context menu — before its entry is seen or after it is
 * chosen; so the menu is opened and the choice made again, at most three times. A command that
 * never runs still fails the test.
 */
async function chooseFromRowMenu(page: Page, row: Locator, item: string, appears: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await row.click({ button: 'right' });
      const entry = page.locator('.context-view .monaco-menu .action-item', { hasText: item }).first();
      await entry.waitFor({ state: 'visible', timeout: 5_000 });
      await entry.hover();
      await page.keyboard.press('Enter');
      await appears.waitFor({ state: 'visible', timeout: 5_000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

/** The Memory pane of Keel's panel container (opened from the Chat view's title). */
function memoryPane(page: Page): Locator {
  return page.locator('.part.panel .pane').filter({ has: page.locator('.pane-header', { hasText: 'Memory' }) });
}

/** Files under `dir` whose content includes `text`. */
function filesHolding(dir: string, text: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) filesHolding(path, text, out);
    else if (st.size < 4_000_000 && readFileSync(path, 'utf8').includes(text)) out.push(path);
  }
  return out;
}

describe('Keel end to end: memory the user can see and edit', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  it('a memory added by hand reaches the prompt and recall; deleted in the Memory view, it is gone from the next task', async () => {
    const session = await sessions.start({ name: '11-memory', model: memoryModel(), viewport: WINDOW_SIZES.fullHd });
    const { view, workbench } = session;
    const page = workbench.page;
    writeFileSync(join(session.folder, 'AGENTS.md'), '# Agents\nUse npm, not yarn.\n');
    await view.open();
    await session.openLibrary();
    const pane = memoryPane(page);
    await pane.first().waitFor({ state: 'visible', timeout: 30_000 });

    // Keel: Remember… from the palette: the text, then the scope.
    await workbench.runCommand('Keel: Remember…');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Keel: Remember' }).first().waitFor({ state: 'visible' });
    await input.fill(MEMORY);
    await session.screenshot('remember-input');
    await input.press('Enter');
    const workspaceScope = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'This workspace' }).first();
    await workspaceScope.waitFor({ state: 'visible', timeout: 10_000 });
    await workspaceScope.click();
    const row = pane.locator('.monaco-list-row', { hasText: MEMORY }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    assert.match(await pane.first().innerText(), /Workspace\s*1/, 'grouped under the workspace scope');
    // The tooltip (whole text and provenance): VS Code also reads it out as the row's label.
    const tooltip = (await row.getAttribute('aria-label')) ?? '';
    for (const part of [MEMORY, 'Scope: workspace', 'Source: you, by hand', 'Confidence: you said it', 'Expires: never'])
      assert.ok(tooltip.includes(part), `the tooltip says ${part}: ${tooltip}`);
    await row.hover();
    await session.screenshot('memory-view');
    const stored = filesHolding(join(session.server.userDataDir, 'User'), MEMORY).filter((f) => f.endsWith('.jsonl'));
    assert.equal(stored.length, 1, `one memory file in the profile's storage: ${stored.join(', ')}`);
    assert.match(stored[0]!, /workspaceStorage.*memory[/\\]workspace\.jsonl$/);
    assert.deepEqual(filesHolding(session.folder, MEMORY), [], 'nothing in the workspace tree');

    // A new task: the index names it; the model recalls it.
    await view.send(ASK);
    await session.answerKeyQuestion();
    await view.waitForText(ANSWER, 60_000);
    const [first, second] = session.modelRequests();
    assert.ok(first && second, 'two model requests');
    assert.match(systemOf(first), /Memory: 1 memory is kept across tasks/);
    assert.ok(systemOf(first).includes(MEMORY), 'the first request carries the memory in its index');
    const recalled = requestText(second);
    assert.ok(recalled.includes(MEMORY) && /stated by user/.test(recalled), 'recall returned it with its provenance');
    assert.match(await view.transcriptText(), /Recall "tests"/);

    // The rules line under the header opens AGENTS.md.
    const rulesLine = (await view.testId(TestIds.rulesLine)).first();
    await rulesLine.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal((await rulesLine.innerText()).trim(), 'Rules: AGENTS.md');
    await session.screenshot('recalled-and-rules-line');
    await (await view.testId(TestIds.rulesFile)).first().click();
    await page.locator('.tabs-container .tab.active', { hasText: 'AGENTS.md' }).first().waitFor({ state: 'visible', timeout: 15_000 });
    await session.screenshot('rules-file-opened');

    // Edit it from the Memory view's context menu: the box holds the text; the row shows the new one.
    await chooseFromRowMenu(
      page,
      row,
      'Edit Memory',
      page.locator('.quick-input-widget .quick-input-title', { hasText: 'Keel: Edit Memory' }).first(),
    );
    await session.screenshot('memory-edit-box');
    assert.equal(await input.inputValue(), MEMORY);
    await input.fill(EDITED);
    await input.press('Enter');
    const edited = pane.locator('.monaco-list-row', { hasText: EDITED }).first();
    await edited.waitFor({ state: 'visible', timeout: 15_000 });
    assert.equal(await pane.locator('.monaco-list-row', { hasText: MEMORY }).count(), 0, 'the old text is gone');
    await session.screenshot('memory-edited');

    // Delete it from the Memory view's context menu.
    const dialog = page.locator('.monaco-dialog-box').filter({ hasText: 'Delete this memory?' }).first();
    await chooseFromRowMenu(page, edited, 'Delete Memory', dialog);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await edited.waitFor({ state: 'detached', timeout: 15_000 });
    await session.screenshot('memory-deleted');

    // The next task's request no longer has it.
    const before = session.modelRequests().length;
    await workbench.runCommand('Keel: New Task');
    await view.send(SECOND_ASK);
    await view.waitForText(NOTHING, 60_000);
    const next = session.modelRequests().slice(before);
    assert.equal(next.length, 1);
    assert.ok(!systemOf(next[0]!).includes(EDITED) && !systemOf(next[0]!).includes(MEMORY), 'the deleted memory is not in the index');
    assert.match(systemOf(next[0]!), /Memory: 0 memories are kept/);
    await session.screenshot('next-task-without-it');
  });
});
