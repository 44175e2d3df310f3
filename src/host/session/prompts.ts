// The texts Keel sends the model on the user's behalf from VS Code: the "fix the failing tests"
// request, and a task's title. (The system prompt is shared: src/compose/system-prompt.ts.)
// Pure, so their content is unit-tested. `keelPromptOf` recognises them again in a log, so the
// transcript shows them as Keel's requests rather than as words the user typed.
import { PLAN_APPROVED_TEXT } from '../../kernel/index.js';
import type { KeelPrompt } from '../../protocol/index.js';

/** The request behind "Keel: Fix the Failing Tests". */
export function buildFixTestsPrompt(hint?: { testCommand?: string }): string {
  const run = hint?.testCommand
    ? `Run the tests with \`${hint.testCommand}\`.`
    : 'Find out how this project runs its tests (package.json scripts, a Makefile, the README) and run them.';
  return [
    'Fix the failing tests in this workspace.',
    '',
    `1. ${run}`,
    '2. Read the failures, then read the code under test and the tests themselves.',
    '3. Decide whether the code or the test is wrong. Prefer fixing the code; change a test only when it is clearly wrong, and say so.',
    '4. Propose the smallest edits that fix the failures.',
    '5. Re-run the tests. Repeat until they all pass, or until you run out of turns.',
    '',
    'Finish with a short summary: what was failing, what you changed, and the final test result.',
  ].join('\n');
}

/** The test command a fix-the-tests request names (undefined: it names none). */
const NAMED_COMMAND = /^1\. Run the tests with `([^`\n]*)`\.$/m;

/**
 * Which of Keel's own requests `text` is, if any. Matched whole (rebuilt and compared), so a
 * message the user typed is theirs unless it is word for word the request Keel sends.
 */
export function keelPromptOf(text: string): KeelPrompt | undefined {
  if (text === PLAN_APPROVED_TEXT) return 'plan_approved';
  if (!text.startsWith('Fix the failing tests in this workspace.\n')) return undefined;
  const testCommand = NAMED_COMMAND.exec(text)?.[1];
  return text === buildFixTestsPrompt(testCommand === undefined ? {} : { testCommand }) ? 'fix_tests' : undefined;
}

/** The title of a task nothing was sent in yet. */
export const NEW_TASK_TITLE = 'New task';

/** A task's title: the first line of its first message, trimmed to fit a list. */
export function taskTitleFrom(text: string, max = 60): string {
  const line = text.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
  if (line === '') return NEW_TASK_TITLE;
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}
