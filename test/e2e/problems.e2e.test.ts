// Issue 38 in a real VS Code: problems after every edit. A TypeScript workspace (VS Code's own
// TypeScript service, no install) with one older error in src/old.ts; writes auto-approved. The
// model asks get_diagnostics until the language service reports the older error (it has
// started), reads src/count.ts, makes an edit that breaks its return type — the edit's own result
// carries the error, file:line:col, and the older one counted as unchanged — then fixes it on
// what it was told, and that edit's result says the error is gone.
// Screenshots: test/e2e/artifacts/38-problems/.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedRequest, Responder } from '../support/model-server.js';
import { streamed, toolHistory } from './lib/fixer-model.js';
import { keelSessions } from './lib/session-hooks.js';

const FILE = 'src/count.ts';
const BREAK = { search: '  return items.length;', replace: '  return `${items.length}`;' };
const FIX = { search: BREAK.replace, replace: BREAK.search };
const ERROR_LINE = /src\/count\.ts:2:3 error Type 'string' is not assignable to type 'number'\./;
const DONE = 'The type error is fixed.';
const MAX_PROBES = 20;

/** Chosen from the tool results so far: probe, read, break, fix (only when told), answer. */
function problemsModel(): Responder {
  return (req: RecordedRequest) => {
    if (req.api === 'unknown') return { type: 'json', status: 404, body: { error: 'not a model endpoint' } };
    const steps = toolHistory(req);
    const last = steps.at(-1);
    const call = (name: string, input: unknown) => streamed(req, { toolCalls: [{ name, input }] });
    const probes = steps.filter((s) => s.name === 'get_diagnostics').length;
    if (!steps.some((s) => s.name === 'read_file')) {
      const ready = last?.name === 'get_diagnostics' && /src\/old\.ts/.test(last.result);
      if (!ready && probes < MAX_PROBES) return call('get_diagnostics', { path: 'src/old.ts' });
      return call('read_file', { path: FILE });
    }
    const edits = steps.filter((s) => s.name === 'edit_file');
    if (edits.length === 0) return call('edit_file', { path: FILE, edits: [BREAK] });
    if (edits.length === 1 && ERROR_LINE.test(last?.result ?? '')) return call('edit_file', { path: FILE, edits: [FIX] });
    return streamed(req, { text: [edits.length === 2 ? DONE : 'I was told of no problem.'] });
  };
}

describe('Keel in a real VS Code: problems after every edit', function () {
  this.timeout(300_000);
  const sessions = keelSessions();

  it('the edit that breaks a type gets the error in its result; the fix made on it is told it is gone', async () => {
    const session = await sessions.start({
      name: '38-problems',
      model: problemsModel(),
      settings: { 'keel.autoApprove': ['read', 'write'] },
      prepare: (folder) => {
        writeFileSync(
          join(folder, 'tsconfig.json'),
          JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src/*.ts'] }),
        );
        writeFileSync(join(folder, FILE), 'export function count(items: string[]): number {\n  return items.length;\n}\n');
        writeFileSync(join(folder, 'src/old.ts'), 'export const old: number = "an older error";\n');
      },
    });
    const { view } = session;
    await view.open();
    await view.send('Make count return its number as text.');
    await session.answerKeyQuestion();
    await view.waitForText(/The type error is fixed\.|I was told of no problem\./, 180_000);
    await session.screenshot('fixed');
    const edits = toolHistory(session.modelRequests().at(-1)!).filter((s) => s.name === 'edit_file');
    assert.equal(edits.length, 2, `edits: ${JSON.stringify(edits.map((e) => e.result))}`);
    assert.match(edits[0]!.result, /Problems after this edit \(VS Code\): 1 new:\n/);
    assert.match(edits[0]!.result, ERROR_LINE);
    assert.match(edits[0]!.result, /1 older problem unchanged\./);
    assert.match(
      edits[1]!.result,
      /Problems after this edit \(VS Code\): none new\. 1 problem gone with this edit\. 1 older problem unchanged\./,
    );
    assert.match(session.file(FILE), /^ {2}return items\.length;$/m);
  });
});
