// Issue 13 in a real VS Code through a real browser: a task makes two edits to src/price.js
// (writes auto-approved), the transcript shows a checkpoint per step and a Files changed summary
// with +/− counts; Compare opens VS Code's multi-file diff; the user restores the files to after
// the first edit (the disk matches, byte for byte), then undoes the restore (back to both edits);
// Keel: Replay Task replays the task from its checkpoints and reports it clean; Restore task to
// here opens a fork of the task up to the first edit.
// Screenshots: test/e2e/artifacts/13-checkpoints/.
import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { TestIds } from '../../src/protocol/test-ids.js';
import type { RecordedRequest, Responder } from '../support/model-server.js';
import { waitFor } from '../support/processes.js';
import { streamed } from './lib/fixer-model.js';
import { byTestId } from './lib/keel-view.js';
import { keelSessions } from './lib/session-hooks.js';

const FILE = 'src/price.js';
const FIRST = { search: 'Math.floor((cents * percent) / 100)', replace: 'Math.round((cents * percent) / 100)' };
const SECOND = { search: 'rounded to the nearest cent.', replace: 'rounded half up to the nearest cent.' };
const DONE = 'Both edits are in.';

/** Reads the file, edits it twice (one edit per step), then answers; chosen by the tool results so far. */
function twoEditsModel(): Responder {
  const steps = [
    { name: 'read_file', input: { path: FILE } },
    { name: 'edit_file', input: { path: FILE, edits: [FIRST] } },
    { name: 'edit_file', input: { path: FILE, edits: [SECOND] } },
  ];
  return (req: RecordedRequest) => {
    if (req.api === 'unknown') return { type: 'json', status: 404, body: { error: 'not a model endpoint' } };
    const results = JSON.stringify(req.body?.messages ?? []).split('"tool_result"').length - 1;
    const step = steps[results];
    return step ? streamed(req, { text: [`Step ${results + 1}.`], toolCalls: [step] }) : streamed(req, { text: [DONE] });
  };
}

/** True when some frame (the workbench, a markdown preview's webview) shows `text`. */
async function anyFrameShows(frames: Frame[], text: string): Promise<boolean> {
  for (const frame of frames) {
    if (frame.isDetached()) continue;
    if (
      (await frame
        .getByText(text)
        .count()
        .catch(() => 0)) > 0
    )
      return true;
  }
  return false;
}

describe('Keel end to end: checkpoints', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  it('restores the files to after the first of two edits, then undoes the restore', async () => {
    const session = await sessions.start({
      name: '13-checkpoints',
      theme: 'dark',
      model: twoEditsModel(),
      settings: { 'keel.autoApprove': ['read', 'write'] },
    });
    const s = session;
    const { view } = s;
    const original = s.file(FILE);
    const afterFirst = original.replace(FIRST.search, FIRST.replace);
    const afterBoth = afterFirst.replace(SECOND.search, SECOND.replace);
    await view.open();
    await view.send('Make discount() round to the nearest cent and say so in its comment.');
    await s.answerKeyQuestion();
    await view.waitForText(DONE, 120_000);
    assert.equal(s.file(FILE), afterBoth, 'both edits are on disk');

    const checkpoints = await view.testId(TestIds.checkpoint);
    await waitFor('two step checkpoints', async () => (await checkpoints.count()) === 2, { timeoutMs: 30_000, intervalMs: 100 });
    const summary = (await view.testId(TestIds.filesChanged)).first();
    await waitFor('the Files changed counts', async () => /src\/price\.js \+2 −2/.test((await summary.textContent()) ?? ''), {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    await summary.scrollIntoViewIfNeeded();
    await s.screenshot('two-edits-checkpointed');

    // Compare: VS Code's multi-file diff of the whole run against now.
    await summary.locator(byTestId(TestIds.filesChangedFile)).first().click();
    const tab = s.workbench.page.locator('.tab').filter({ hasText: 'Keel: before this run' });
    await tab.first().waitFor({ state: 'visible', timeout: 30_000 });
    // The left side is the checkpoint's bytes (served by keel-checkpoint:), the right the file now.
    const diff = s.workbench.page.locator('.monaco-diff-editor').filter({ hasText: 'Math.floor' });
    await diff.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.match((await diff.first().innerText()) ?? '', /Math\.round/);
    // One file changed, not renamed: the entry is not marked "R" with its name struck through.
    const entry = s.workbench.page.locator('.multiDiffEntry').first();
    await entry.waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await s.workbench.page.locator('.multiDiffEntry .status.renamed').count(), 0, 'no rename mark');
    await s.screenshot('compare-run');

    // Restore files to here, on the first edit's checkpoint (its one menu): the second edit is undone.
    await checkpoints.first().locator(byTestId(TestIds.checkpointMenu)).click();
    await checkpoints.first().locator(byTestId(TestIds.restoreFiles)).click();
    await waitFor('the file as it was after the first edit', async () => s.file(FILE) === afterFirst, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    const undo = (await view.testId(TestIds.undoRestore)).first();
    await undo.waitFor({ state: 'visible', timeout: 30_000 });
    await undo.scrollIntoViewIfNeeded();
    await s.screenshot('restored-to-first-edit');

    // The restore was itself checkpointed: undoing it brings the second edit back.
    await undo.click();
    await waitFor('the file as the task left it', async () => s.file(FILE) === afterBoth, { timeoutMs: 30_000, intervalMs: 100 });
    await waitFor('a second restore checkpoint', async () => (await (await view.testId(TestIds.undoRestore)).count()) === 2, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    await s.screenshot('restore-undone');
    assert.ok(!s.file(FILE).includes('\r'), 'line endings as they were');

    // Keel: Replay Task replays the task from its checkpoints and opens the comparison.
    const page = s.workbench.page;
    await s.workbench.runCommand('Keel: Replay Task');
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first();
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await row.click();
    await waitFor('the replay report saying it replays clean', () => anyFrameShows(page.frames(), 'Replays clean'), {
      timeoutMs: 90_000,
      intervalMs: 250,
    });
    assert.equal(s.file(FILE), afterBoth, 'the replay ran in a copy');
    await s.screenshot('replay-report');

    // Restore task to here: a fork of the task up to the first edit opens; the files stay.
    await checkpoints.first().locator(byTestId(TestIds.checkpointMenu)).click();
    await checkpoints.first().locator(byTestId(TestIds.restoreTask)).click();
    await waitFor(
      'the fork, up to the first edit',
      async () => (await checkpoints.count()) === 1 && !(await view.transcriptText()).includes(DONE),
      {
        timeoutMs: 30_000,
        intervalMs: 100,
      },
    );
    assert.equal(s.file(FILE), afterBoth, 'Restore task leaves the files alone');
    await s.screenshot('task-forked');
  });
});
