// Issue 12 in a real VS Code through a real browser: a workspace-defined MCP server. The
// workspace's .vscode/mcp.json names the reference "everything" server (stdio, from npm); it
// waits for approval in the MCP Servers view; the modal shows its exact command line; Cancel
// leaves it unstarted, Allow starts it; the view lists its tools; the model is offered
// mcp__everything__*; its echo call asks in a card (risk execute), is approved, and the
// server's answer reaches the model's next request. Screenshots: test/e2e/artifacts/12-mcp/.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { TestIds } from '../../src/protocol/test-ids.js';
import type { RecordedRequest, Responder } from '../support/model-server.js';
import { requestText, streamed } from './lib/fixer-model.js';
import { byTestId } from './lib/keel-view.js';
import { WINDOW_SIZES } from './lib/keel-session.js';
import { keelSessions } from './lib/session-hooks.js';

const require = createRequire(__filename);
const EVERYTHING = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
/** What the approval must show, character for character (the variable it sets included). */
const COMMAND_LINE = `LOG_LEVEL=quiet node ${EVERYTHING} stdio`;
const SERVER = 'everything';
const ECHO = 'mcp__everything__echo';
const MESSAGE = 'keel-e2e-echo-7f3a';
const ASK = 'Echo the marker through the MCP server.';
const DONE = 'The server echoed the marker back.';

/** Calls echo when it is offered, answers once the tool result is in; else says it has no tool. */
function mcpModel(): Responder {
  return (req: RecordedRequest) => {
    if (req.api === 'unknown') return { type: 'json', status: 404, body: { error: 'not a model endpoint' } };
    if (requestText(req).includes('tool_result')) return streamed(req, { text: [DONE] });
    if (toolNames(req).includes(ECHO)) return streamed(req, { toolCalls: [{ name: ECHO, input: { message: MESSAGE } }] });
    return streamed(req, { text: ['No MCP tool is offered.'] });
  };
}

const toolNames = (req: RecordedRequest): string[] => ((req.body?.tools ?? []) as { name: string }[]).map((t) => t.name);

/** The MCP Servers pane of Keel's panel container (opened from the Chat view's title), expanded. */
async function serversPane(page: Page): Promise<Locator> {
  const pane = page
    .locator('.part.panel .pane')
    .filter({ has: page.locator('.pane-header', { hasText: 'MCP Servers' }) })
    .first();
  await pane.waitFor({ state: 'visible', timeout: 30_000 });
  const header = pane.locator('.pane-header').first();
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  return pane;
}

/** Hovers the server's row (inline actions show on hover) and clicks Approve and Start. */
async function clickApprove(row: Locator): Promise<void> {
  await row.hover();
  const action = row.locator('.actions .action-label[aria-label*="Approve and Start"]').first();
  await action.waitFor({ state: 'visible', timeout: 10_000 });
  await action.click();
}

describe('Keel end to end: a workspace-defined MCP server', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  it('starts only once approved in a modal naming its command line; its tool asks, runs and answers the model', async () => {
    const session = await sessions.start({
      name: '12-mcp',
      viewport: WINDOW_SIZES.fullHd,
      model: mcpModel(),
      prepare: (folder) => {
        mkdirSync(join(folder, '.vscode'), { recursive: true });
        const servers = { [SERVER]: { type: 'stdio', command: 'node', args: [EVERYTHING, 'stdio'], env: { LOG_LEVEL: 'quiet' } } };
        writeFileSync(join(folder, '.vscode', 'mcp.json'), JSON.stringify({ servers }, null, 2));
      },
    });
    const { view, workbench } = session;
    const page = workbench.page;
    await view.open();
    await session.openLibrary();
    const pane = await serversPane(page);
    const row = pane.locator('.monaco-list-row', { hasText: SERVER }).first();
    await row.locator('.label-description', { hasText: 'needs your approval' }).waitFor({ state: 'visible', timeout: 30_000 });
    await session.screenshot('awaiting-approval');

    // Cancel: nothing starts.
    const question = `Allow the workspace's MCP server "${SERVER}"`;
    const namesTheLine = (text: string) =>
      assert.ok(text.includes(COMMAND_LINE), `the modal names the exact command line ${COMMAND_LINE}: ${text}`);
    await clickApprove(row);
    await session.answerModal(question, 'Cancel', { check: namesTheLine, screenshot: 'approval-modal-cancelled' });
    await page.waitForTimeout(1_000); // a start would show "starting" at once
    assert.match(await row.innerText(), /needs your approval/, 'still waiting after Cancel');

    // Allow: it starts and lists its tools.
    await clickApprove(row);
    await session.answerModal(question, 'Allow and Start', { check: namesTheLine, screenshot: 'approval-modal' });
    await row.locator('.label-description', { hasText: /^ready$/ }).waitFor({ state: 'visible', timeout: 60_000 });
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
    const echoRow = pane
      .locator('.monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: /^echo$/ }) })
      .first();
    await echoRow.waitFor({ state: 'visible', timeout: 15_000 });
    // The server's readOnlyHint is shown; the card below still asks (a hint is never trusted alone).
    assert.match(await echoRow.innerText(), /server says read-only/);
    await session.screenshot('server-ready-with-tools');

    // The model is offered its tools; its call asks (risk execute) and is approved.
    await view.send(ASK);
    await session.answerKeyQuestion();
    const card = await view.pendingCard(60_000);
    assert.equal(await card.getAttribute('data-tool'), ECHO);
    assert.match((await card.getAttribute('class')) ?? '', /\brisk-execute\b/);
    // The card says in words what the risk means (execute: it may change files or the system).
    assert.match(await card.innerText(), /it may change files or the system/);
    await card.scrollIntoViewIfNeeded();
    await session.screenshot('echo-asks');
    await card.locator(byTestId(TestIds.approve)).first().click();
    await view.waitForText(DONE, 60_000);
    await session.screenshot('echo-answered');

    const [first, second] = session.modelRequests();
    assert.ok(first && second, 'two model requests');
    const offered = toolNames(first).filter((n) => n.startsWith('mcp__'));
    assert.ok(offered.includes(ECHO), `echo is offered: ${offered.join(', ')}`);
    assert.ok(offered.every((n) => n.startsWith(`mcp__${SERVER}__`)));
    assert.ok(requestText(second).includes(`Echo: ${MESSAGE}`), 'the server result reaches the model');
  });
});
