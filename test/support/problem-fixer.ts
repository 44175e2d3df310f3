// A scripted model that acts only on what it is told: it reads a file, makes a seeded edit, and
// afterwards fixes a problem only when an observation names it (a problem line after an edit, or
// a checker's error in a test run's output), from a table of fixes keyed by the message. With
// `runTests`, it runs the tests after each edit it makes until a run passes. The CLI tests and
// bench/verify.ts use it to show what the problems after an edit change, rather than assume it.
import type { ModelRequest } from '../../src/kernel/index.js';
import { textTurn, toolTurn, type Script } from '../../src/providers/scripted.js';

export interface SeededTask {
  file: string;
  /** The edit the task asks for, which brings a problem in. */
  edit: { search: string; replace: string };
  /** How to fix a problem whose message holds the key. */
  fixes: Record<string, { search: string; replace: string }>;
}

// a.ts:1:14 error Type … (Keel's report) | a.ts(1,14): error TS2322: Type … (tsc in a test run) | a.sh:3:5: warning: … (shellcheck)
const PROBLEM = /^(?<file>[^\s:(]+)(?::\d+:\d+:? (?:error|warning):?|\(\d+,\d+\): error) (?<message>.*)$/gm;

export function fixerScript(task: SeededTask, options: { runTests: boolean }): Script {
  const applied = new Set<string>();
  return (request) => {
    const last = lastToolResult(request);
    if (!last) return toolTurn('read_file', { path: task.file }, '', 'read');
    if (last.tool === 'read_file') return toolTurn('edit_file', { path: task.file, edits: [task.edit] }, '', 'edit');
    const fix = toldFix(last.content, task, applied);
    if (fix) {
      applied.add(fix.key);
      return toolTurn('edit_file', { path: task.file, edits: [fix.edit] }, `Fixing: ${fix.key}`, `fix${applied.size}`);
    }
    if (options.runTests && !(last.tool === 'run_tests' && !last.isError && passed(last.content)))
      return toolTurn('run_tests', {}, '', `test${request.messages.length}`);
    return textTurn('done');
  };
}

function lastToolResult(request: ModelRequest) {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i]!;
    if (m.role === 'tool_result') return m;
    if (m.role === 'user') return undefined;
  }
  return undefined;
}

function toldFix(content: string, task: SeededTask, applied: ReadonlySet<string>) {
  for (const m of content.matchAll(PROBLEM)) {
    if (m.groups!.file !== task.file) continue;
    const key = Object.keys(task.fixes).find((k) => m.groups!.message!.includes(k) && !applied.has(k));
    if (key) return { key, edit: task.fixes[key]! };
  }
  return undefined;
}

/** A test run that passed: no failure counted, no checker error printed. */
function passed(content: string): boolean {
  return !/\bfail(ed|ing|ures?)?\b[^\n]*[1-9]|error TS\d+/i.test(content) && /pass/i.test(content);
}
