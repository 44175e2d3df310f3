// Issue 34 #16 in a real VS Code through a real browser: with no MCP server defined, the MCP
// Servers view says what a server is for and where one is added, and its Add MCP Server opens
// the workspace's .vscode/mcp.json (created with an empty "servers"). Looked at in both window
// sizes and the three themes. Screenshots: test/e2e/artifacts/34-mcp-empty-<size>-<theme>/.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { fixerModel } from './lib/fixer-model.js';
import { type ThemeName, WINDOW_SIZES } from './lib/keel-session.js';
import { keelSessions } from './lib/session-hooks.js';

/** The MCP Servers pane of Keel's panel container, expanded. */
async function serversPane(page: Page) {
  const pane = page
    .locator('.part.panel .pane')
    .filter({ has: page.locator('.pane-header', { hasText: 'MCP Servers' }) })
    .first();
  await pane.waitFor({ state: 'visible', timeout: 30_000 });
  const header = pane.locator('.pane-header').first();
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  return pane;
}

const LOOKS: { size: keyof typeof WINDOW_SIZES; theme: ThemeName; add: boolean }[] = [
  { size: 'fullHd', theme: 'dark', add: true },
  { size: 'laptop', theme: 'light', add: false },
  { size: 'laptop', theme: 'highContrast', add: false },
];

describe('Keel end to end: the MCP Servers view with no server', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  for (const { size, theme, add } of LOOKS)
    it(`says how to add a server (${size}, ${theme})${add ? ', and Add MCP Server opens the file' : ''}`, async () => {
      const session = await sessions.start({
        name: `34-mcp-empty-${size}-${theme}`,
        viewport: WINDOW_SIZES[size],
        theme,
        model: fixerModel(),
      });
      const page = session.workbench.page;
      await session.view.open();
      await session.openLibrary();
      const pane = await serversPane(page);
      const welcome = pane.locator('.welcome-view-content');
      await welcome.waitFor({ state: 'visible', timeout: 30_000 });
      const text = await welcome.innerText();
      assert.match(text, /No MCP servers yet/);
      assert.match(text, /\.vscode\/mcp\.json/);
      await session.screenshot('empty-mcp-view', { look: false });
      if (!add) return;
      await welcome.getByRole('button', { name: 'Add MCP Server' }).click();
      await page.locator('.tab', { hasText: 'mcp.json' }).first().waitFor({ state: 'visible', timeout: 30_000 });
      const file = join(session.folder, '.vscode', 'mcp.json');
      assert.ok(existsSync(file), 'the workspace file is created');
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { servers: {} });
      await session.screenshot('add-mcp-server-opened', { look: false });
    });
});
