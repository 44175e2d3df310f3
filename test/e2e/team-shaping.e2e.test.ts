// Issue 25 in a real VS Code through a real browser, at the side bar width people use (~300 px):
// 1. Plan mode: the user picks Plan in the header, the model reads, cannot write, and writes its
//    plan as a to-do list pinned above the composer; Approve plan goes on in Agent mode, where the
//    model ticks the items off while it edits the file and runs the tests.
// 2. A team's slash command: `.keel/commands/fix-tests.md` is completed in the composer from `/fix`
//    and reaches the model expanded with the argument the user typed.
// Screenshots: test/e2e/artifacts/25-plan-mode/ and 25-slash-command/.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { PLAN_APPROVED_TEXT } from '../../src/kernel/index.js';
import { TestIds } from '../../src/protocol/test-ids.js';
import { repoRoot } from '../support/code-server.js';
import type { RecordedRequest, Responder } from '../support/model-server.js';
import { chunkText } from '../support/model-turn.js';
import { waitFor } from '../support/processes.js';
import { bugLine, fixLine, offeredTools, requestText, streamed, toolHistory } from './lib/fixer-model.js';
import type { KeelSession } from './lib/keel-session.js';
import { byTestId } from './lib/keel-view.js';
import { waitForDiffEditor } from './lib/diff-editor.js';
import { lookAtPanel } from './lib/panel-look.js';
import { keelSessions } from './lib/session-hooks.js';

/** The side bar widths people have: VS Code's default on a laptop (300 px) up to a little wider. */
const SIDE_BAR = { min: 295, max: 320 };
const original = readFileSync(join(repoRoot, 'examples', 'failing-tests', 'src', 'price.js'), 'utf8');
const fixed = original.replace(bugLine, fixLine);

const PLAN = [
  { id: 'round', text: 'Make discount() round to the nearest cent instead of down' },
  { id: 'test', text: 'Run the tests to confirm the 25% case gives 500 cents' },
  { id: 'tell', text: 'Tell the user what changed and why' },
];
type Status = 'pending' | 'in_progress' | 'done';
const todos = (...statuses: Status[]) => ({ todos: PLAN.map((item, i) => ({ ...item, status: statuses[i]! })) });
/**
 * The pinned list takes its share of the side bar on purpose (at most 30% of the view, then it
 * scrolls): with three items and Approve plan the conversation keeps a little under 70%.
 */
const WITH_PIN = { rules: { minTranscriptShare: 0.55 } };
const PLAN_SUMMARY = 'The plan is in the to-do list: round to the nearest cent, run the tests, report.';
const DONE_TEXT = 'Done: discount() rounds to the nearest cent and the tests pass.';

/**
 * The model of scenario 1, choosing each turn from what the request shows. In Plan mode: read the
 * file, try to write it anyway (Keel refuses), write the plan, sum it up. Once the user's approval
 * is in the conversation: tick the first item, edit, tick, run the tests, tick the rest, answer.
 */
function plannerModel(): Responder {
  return (req: RecordedRequest) => {
    if (req.api === 'unknown') return { type: 'json', status: 404, body: { error: 'not a model endpoint' } };
    const steps = toolHistory(req);
    const last = steps[steps.length - 1];
    if (!requestText(req).includes('I approve the plan')) {
      if (!last)
        return streamed(req, { text: ['Reading the code first.'], toolCalls: [{ name: 'read_file', input: { path: 'src/price.js' } }] });
      if (last.name === 'read_file')
        return streamed(req, { toolCalls: [{ name: 'write_file', input: { path: 'src/price.js', content: fixed } }] });
      if (last.name === 'write_file')
        return streamed(req, { toolCalls: [{ name: 'todo_write', input: todos('pending', 'pending', 'pending') }] });
      return streamed(req, { text: chunkText(PLAN_SUMMARY, 16) });
    }
    const agentSteps = steps.slice(3); // read_file, write_file and todo_write were the plan's
    const did = (name: string) => agentSteps.some((s) => s.name === name);
    const call = (name: string, input: unknown) => streamed(req, { toolCalls: [{ name, input }] });
    if (agentSteps.length === 0) return call('todo_write', todos('in_progress', 'pending', 'pending'));
    if (!did('edit_file')) return call('edit_file', { path: 'src/price.js', edits: [{ search: bugLine, replace: fixLine }] });
    if (last!.name === 'edit_file') return call('todo_write', todos('done', 'in_progress', 'pending'));
    if (!did('run_tests')) return call('run_tests', {});
    if (last!.name === 'run_tests') return call('todo_write', todos('done', 'done', 'done'));
    return streamed(req, { text: chunkText(DONE_TEXT, 16) });
  };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

interface PinItemLook {
  text: string;
  /** Everything the item says, the state in words for screen readers included. */
  words: string;
  status: string;
  box: Box;
  /** The text is cut (scrolls inside its box, sideways or down). */
  clipped: boolean;
  glyph: string;
  glyphBox: Box;
  decoration: string;
}

/** The pinned list as the page lays it out (boxes in the view's own coordinates). A string: see panel-look.ts. */
const PIN_LOOK = `(() => {
  const pin = document.querySelector('[data-testid="todo-pin"]');
  if (!pin || pin.hidden) return undefined;
  const r = (el) => { const b = el.getBoundingClientRect(); return { x: b.x, y: b.y, width: b.width, height: b.height }; };
  const items = [...pin.querySelectorAll('[data-testid="todo-item"]')].map((li) => {
    const text = li.querySelector('.todo-text');
    const glyph = li.querySelector('.todo-glyph');
    return {
      text: text.textContent, words: li.textContent, status: li.getAttribute('data-status'), box: r(text),
      clipped: text.scrollWidth > text.clientWidth + 1 || text.scrollHeight > text.clientHeight + 1,
      glyph: glyph.className, glyphBox: r(glyph), decoration: getComputedStyle(text).textDecorationLine,
    };
  });
  const composer = document.querySelector('[data-testid="input"]');
  return { pin: r(pin), composerTop: r(composer).y, head: pin.querySelector('.todo-pin-head').textContent, items };
})()`;

const inside = (inner: Box, outer: Box) =>
  inner.height > 0 &&
  inner.y >= outer.y - 1 &&
  inner.x >= outer.x - 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1;

/**
 * Waits until the pin shows `statuses`, then checks it as a person sees it: every item's text
 * whole (not cut), at least a line tall, inside the pin and inside the visible part of the view.
 */
async function pinShows(session: KeelSession, frame: Frame, statuses: Status[]): Promise<PinItemLook[]> {
  const want = JSON.stringify(statuses);
  const look = await waitFor(
    `the pinned list to show ${want}`,
    async () => {
      const seen = (await frame.evaluate(PIN_LOOK)) as { pin: Box; composerTop: number; head: string; items: PinItemLook[] } | undefined;
      return seen && JSON.stringify(seen.items.map((i) => i.status)) === want ? seen : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100 },
  );
  const done = statuses.filter((s) => s === 'done').length;
  assert.equal(look.head, `To-do · ${done} of ${statuses.length} done`);
  assert.ok(look.pin.y + look.pin.height <= look.composerTop + 1, 'the list is pinned above the composer');
  const panel = await lookAtPanel(session.workbench.page, frame);
  const origin = await (await frame.frameElement()).boundingBox();
  assert.ok(panel && origin, 'the view is on screen');
  const onPage = (b: Box): Box => ({ ...b, x: b.x + origin.x, y: b.y + origin.y });
  look.items.forEach((item, i) => {
    assert.equal(item.text, PLAN[i]!.text);
    assert.ok(!item.clipped, `"${item.text}" is shown whole, not cut`);
    assert.ok(item.box.height >= 12, `"${item.text}" is at least a line tall (${item.box.height} px)`);
    assert.ok(inside(item.box, look.pin), `"${item.text}" is inside the pinned list (no scrolling needed)`);
    assert.ok(inside(onPage(item.box), panel.webview), `"${item.text}" is inside the visible part of the view`);
    assert.ok(item.glyphBox.width >= 10, `"${item.text}" has its state glyph`);
  });
  return look.items;
}

/** The scenarios look at the panel in the side bar people have (the laptop window's default). */
async function sideBarIsNarrow(session: KeelSession): Promise<void> {
  const width = (await session.workbench.page.locator('.part.sidebar').first().boundingBox())?.width ?? 0;
  assert.ok(width >= SIDE_BAR.min && width <= SIDE_BAR.max, `a side bar of ${SIDE_BAR.min}–${SIDE_BAR.max} px, not ${width}`);
}

/**
 * The header's labels at this width, as a person reads them: the auto-approve label whole (cut,
 * "Aut…" says nothing) and the model's name given room enough to be recognised (its whole name
 * is in the tooltip).
 */
async function headerReadable(frame: Frame): Promise<void> {
  const label = (id: string) =>
    frame
      .locator(`${byTestId(id)} .header-picker-text`)
      .evaluate((el) => ({ text: el.textContent ?? '', width: el.clientWidth, whole: el.scrollWidth <= el.clientWidth + 1 }));
  const auto = await label(TestIds.autoApprovePicker);
  assert.ok(auto.whole, `the auto-approve label "${auto.text}" is shown whole (${auto.width} px)`);
  const model = await label(TestIds.modelPicker);
  assert.ok(model.width >= 80, `the model's name "${model.text}" gets ${model.width} px (wanted ≥ 80)`);
}

/** The text of the last message of a request (what the user just sent, for a new turn). */
function lastMessageText(req: RecordedRequest): string {
  const messages = (req.body?.messages ?? []) as { content: unknown }[];
  return JSON.stringify(messages[messages.length - 1]?.content ?? '');
}

describe('Keel end to end: shaping the agent (issue 25)', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  it('Plan mode writes a pinned to-do list; Approve plan goes on in Agent mode and ticks it off', async () => {
    const startedAt = Date.now();
    const session = await sessions.start({ name: '25-plan-mode', model: plannerModel() });
    const { view } = session;
    const frame = await view.open();
    await sideBarIsNarrow(session);

    // The header's mode picker, found as a person (or a screen reader) finds it: the box labelled Mode.
    const mode = frame.getByRole('combobox', { name: 'Mode' });
    await mode.selectOption({ label: 'Plan' });
    assert.equal(await mode.inputValue(), 'plan');
    await headerReadable(frame);
    await view.send('The discount test fails. Plan the fix first.');
    await session.answerKeyQuestion();

    // Plan: only the tools that change nothing are offered; a write is refused, and the model is told.
    await pinShows(session, frame, ['pending', 'pending', 'pending']);
    await view.waitForText(PLAN_SUMMARY, 60_000);
    const approvePlan = frame.locator(byTestId(TestIds.approvePlan));
    await approvePlan.waitFor({ state: 'visible', timeout: 30_000 });
    const first = session.modelRequests()[0]!;
    assert.match(requestText(first), /sent this in Plan mode/);
    assert.ok(offeredTools(first).includes('todo_write'), 'Plan offers todo_write');
    for (const tool of ['edit_file', 'write_file', 'run_command'])
      assert.ok(!offeredTools(first).includes(tool), `Plan does not offer ${tool}`);
    const write = session
      .modelRequests()
      .flatMap(toolHistory)
      .find((s) => s.name === 'write_file');
    assert.ok(write?.isError, 'the write in Plan mode came back as an error');
    assert.match(write.result, /write_file is not available in Plan mode/);
    assert.equal(session.file('src/price.js'), original, 'nothing changed in Plan mode');
    assert.equal(await mode.inputValue(), 'plan', 'the picker shows the task is in Plan');
    await session.screenshot('plan-written', WITH_PIN);

    // Approve: the next request is in Agent mode, with the approval as the user's message.
    const before = session.modelRequests().length;
    await approvePlan.click();
    const approved = await waitFor('the request after Approve plan', () => session.modelRequests()[before], { timeoutMs: 30_000 });
    assert.ok(lastMessageText(approved).includes(PLAN_APPROVED_TEXT), 'the model reads that the plan was approved');
    assert.doesNotMatch(lastMessageText(approved), /Plan mode/);
    for (const tool of ['edit_file', 'write_file']) assert.ok(offeredTools(approved).includes(tool), `Agent offers ${tool}`);
    await waitFor('the picker to follow the task into Agent', async () => (await mode.inputValue()) === 'agent', { timeoutMs: 10_000 });
    await approvePlan.waitFor({ state: 'hidden', timeout: 10_000 });

    // The agent works through the list: the first item in progress while its edit waits.
    await view.pendingCard(60_000, /price\.js/);
    const working = await pinShows(session, frame, ['in_progress', 'pending', 'pending']);
    assert.match(working[0]!.words, /\(in progress\)/);
    // The edit is shown in the diff editor before it touches the disk, as for any edit.
    await waitForDiffEditor(session);
    await session.screenshot('working-edit-waits', WITH_PIN);
    await view.approve(/price\.js/);
    await waitFor('the edit on disk', () => session.file('src/price.js') === fixed, { timeoutMs: 30_000 });
    await pinShows(session, frame, ['done', 'in_progress', 'pending']);
    assert.equal(await view.approveIfAsked(/run_tests|Run the tests|npm test/, DONE_TEXT), 'approved');
    await view.waitForText(DONE_TEXT, 60_000);

    // Every item ticked, as a person sees it and as a screen reader reads it.
    const ticked = await pinShows(session, frame, ['done', 'done', 'done']);
    for (const item of ticked) {
      assert.match(item.words, /\(done\)$/, 'the state in words');
      assert.match(item.glyph, /codicon-pass-filled/, 'the tick');
      assert.equal(item.decoration, 'line-through', 'struck through');
    }
    assert.equal(session.file('src/price.js'), fixed);
    await session.screenshot('all-done', WITH_PIN);
    console.log(`      plan → approve → done in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  });

  it('/fix-tests from .keel/commands is completed in the composer and reaches the model expanded', async () => {
    const startedAt = Date.now();
    const session = await sessions.start({
      name: '25-slash-command',
      model: (req) =>
        req.api === 'unknown'
          ? { type: 'json', status: 404, body: { error: 'not a model endpoint' } }
          : streamed(req, { text: chunkText('Running the tests in test/price.test.js first.', 16) }),
      prepare: (folder) => {
        mkdirSync(join(folder, '.keel', 'commands'), { recursive: true });
        writeFileSync(
          join(folder, '.keel', 'commands', 'fix-tests.md'),
          [
            '---',
            'description: Run the failing tests and fix the code until they pass',
            'argument-hint: "[test file]"',
            '---',
            'Run the tests in $ARGUMENTS. Find why they fail and fix the code, not the tests.',
            '',
          ].join('\n'),
        );
      },
    });
    const { view, workbench } = session;
    const frame = await view.open();
    await sideBarIsNarrow(session);

    const input = (await view.testId(TestIds.input)).first();
    await input.click();
    await workbench.page.keyboard.type('/fix');
    const list = frame.locator(byTestId(TestIds.commandList));
    await list.waitFor({ state: 'visible', timeout: 15_000 });
    const option = list.getByRole('option', { name: /\/fix-tests/ });
    assert.match(await option.innerText(), /\/fix-tests/);
    assert.match(await option.innerText(), /Run the failing tests and fix the code until they pass/);
    assert.equal(await option.getAttribute('aria-selected'), 'true');
    assert.equal(await input.getAttribute('aria-expanded'), 'true');
    // Readable: the option's words are not cut, and the list is inside the visible part of the view.
    const cut = await option.evaluate((el) =>
      [el, ...el.querySelectorAll('.command-head, .command-description')].some(
        (s) => s.clientWidth === 0 || s.scrollWidth > s.clientWidth + 1 || s.scrollHeight > s.clientHeight + 1,
      ),
    );
    assert.ok(!cut, 'the command, its hint and its description are shown whole');
    const panel = await lookAtPanel(workbench.page, frame);
    const listBox = await list.boundingBox();
    assert.ok(panel && listBox && inside(listBox, panel.webview), 'the list is inside the visible part of the view');
    // The open list sits above the box for the moment a name is typed, taking the room it needs.
    await session.screenshot('completion-list', { rules: { minTranscriptShare: 0.6 } });

    await workbench.page.keyboard.press('Tab');
    assert.equal(await input.inputValue(), '/fix-tests ');
    await list.waitFor({ state: 'hidden', timeout: 5000 });
    await workbench.page.keyboard.type('test/price.test.js');
    await workbench.page.keyboard.press('Enter');
    await session.answerKeyQuestion();

    const request = await waitFor('the model request', () => session.modelRequests()[0], { timeoutMs: 60_000 });
    const sent = lastMessageText(request);
    assert.ok(sent.includes('Run the tests in test/price.test.js. Find why they fail and fix the code, not the tests.'), sent);
    assert.ok(!sent.includes('/fix-tests'), 'the model gets the saved prompt, not the raw command');
    await view.waitForText('Running the tests in test/price.test.js first.', 60_000);
    const shown = await (await view.testId(TestIds.userMessage)).first().innerText();
    // What the model was sent: the saved prompt with the argument in it.
    assert.match(shown, /Run the tests in test\/price\.test\.js\. Find why they fail/);
    await session.screenshot('command-sent');
    console.log(`      /fix-tests in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  });
});
