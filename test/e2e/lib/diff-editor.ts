// The diff editor as a person sees it: the proposal for src/price.js laid out on the right
// (modified) side and the file as it is on the left, in the active price.js tab.
import * as assert from 'node:assert/strict';
import { waitFor } from '../../support/processes.js';
import type { KeelSession } from './keel-session.js';

/** Waits until the diff editor shows the proposed src/price.js (Math.round) against the file (Math.floor). */
export async function waitForDiffEditor(session: KeelSession): Promise<void> {
  const page = session.workbench.page;
  await page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.locator('.tabs-container .tab.active', { hasText: 'price.js' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  // Each look is short; the diff editor may take a while to lay out its sides on a loaded machine.
  const side = (which: string) =>
    page
      .locator(`.monaco-diff-editor .editor.${which} .view-lines`)
      .first()
      .innerText({ timeout: 1000 })
      .catch(() => '');
  await waitFor('the proposed line in the diff editor', async () => (await side('modified')).includes('Math.round((cents'), {
    timeoutMs: 30_000,
  });
  assert.ok((await side('original')).includes('Math.floor((cents'), 'the left side shows the file as it is');
}
