import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import type { ToolDefinition, ToolIntent } from '../../../src/kernel/index.js';
import { EditPreviews, planIntentEdit } from '../../../src/host/edits/edit-plans.js';
import { editFileTool } from '../../../src/tools/edit-file.js';
import { writeFileTool } from '../../../src/tools/write-file.js';
import { runCommandTool } from '../../../src/tools/run-command.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';

const intent = (tool: string, input: unknown, paths = ['a.txt']): ToolIntent => ({
  id: 'i1',
  tool,
  input,
  providerRef: 'p',
  summary: '',
  risk: 'write',
  paths,
  status: 'awaiting_approval',
});
const bytes = (s: string) => new TextEncoder().encode(s);

describe('host/edit-plans (the diff editor’s proposed side)', () => {
  it('applies edit_file blocks to the current bytes, keeping CRLF', () => {
    const plan = planIntentEdit(
      editFileTool,
      intent('edit_file', { path: 'a.txt', edits: [{ search: 'two', replace: 'TWO' }] }),
      bytes('one\r\ntwo\r\n'),
    );
    assert.deepEqual(plan, { ok: true, content: 'one\r\nTWO\r\n' });
  });

  it('shows write_file content for a new file', () => {
    assert.deepEqual(planIntentEdit(writeFileTool, intent('write_file', { path: 'n.txt', content: 'hi\n' }), undefined), {
      ok: true,
      content: 'hi\n',
    });
  });

  it('says why an edit cannot apply', () => {
    const plan = planIntentEdit(
      editFileTool,
      intent('edit_file', { path: 'a.txt', edits: [{ search: 'absent', replace: 'x' }] }),
      bytes('one\n'),
    );
    assert.equal(plan?.ok, false);
    assert.equal(
      planIntentEdit(editFileTool, intent('edit_file', { path: 'a.txt', edits: [{ search: 'a', replace: 'b' }] }), undefined)?.ok,
      false,
    );
  });

  it('ignores tools that change no file', () => {
    assert.equal(planIntentEdit(runCommandTool, intent('run_command', { command: 'ls' }), undefined), undefined);
    assert.equal(planIntentEdit(undefined, intent('edit_file', {}), undefined), undefined, 'a tool the runtime does not offer');
  });
});

/** A tool Keel does not ship (as an MCP-like server or a plugin could bring): it declares an edit and its preview. */
const appendLineTool: ToolDefinition<{ path: string; line: string }> = {
  name: 'append_line',
  kind: 'edit',
  description: 'appends a line',
  input: z.object({ path: z.string(), line: z.string() }),
  risk: 'write',
  readOnly: false,
  concurrencySafe: false,
  outputBudgetTokens: 100,
  summarize: (i) => i.path,
  paths: (i) => [i.path],
  preview(raw, current) {
    const input = z.object({ path: z.string(), line: z.string() }).safeParse(raw);
    if (!input.success) return { ok: false, message: 'malformed' };
    const proposedContent = `${new TextDecoder().decode(current ?? new Uint8Array())}${input.data.line}\n`;
    return { ok: true, path: input.data.path, proposedContent, proposedBytes: bytes(proposedContent), plan: undefined };
  },
  execute: async () => ({ ok: true, content: 'appended' }),
};

describe('host/edit-plans: any tool that declares an edit gets the diff review', () => {
  it('a new editing tool (kind edit, with a preview) is planned for the diff; an MCP-like tool of kind other is not', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'keel-previews-'));
    writeFileSync(path.join(root, 'notes.txt'), 'first\n');
    const ws = await createNodeWorkspace(root);
    const previews = new EditPreviews();
    const call = intent('append_line', { path: 'notes.txt', line: 'second' }, ['notes.txt']);
    const prepared = await previews.prepare(call, appendLineTool, ws);
    assert.deepEqual(prepared, { rel: 'notes.txt', exists: true, outcome: { ok: true, content: 'first\nsecond\n' } });
    assert.equal(previews.previewed('i1')?.preview.proposedContent, 'first\nsecond\n', 'kept for the call');

    const mcpLike: ToolDefinition = { ...appendLineTool, name: 'srv__append', kind: 'other', preview: undefined };
    assert.equal(await previews.prepare({ ...call, id: 'i2' }, mcpLike, ws), undefined, 'no preview: no diff claimed');
  });

  it('the edit_file call writes the plan its diff showed when the file did not change, and plans again when it did', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'keel-previews-'));
    writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\n');
    const ws = await createNodeWorkspace(root);
    const previews = new EditPreviews();
    const shown = intent('edit_file', { path: 'a.txt', edits: [{ search: 'two', replace: 'SHOWN' }] });
    await previews.prepare(shown, editFileTool, ws);
    const previewed = previews.previewed('i1');
    assert.ok(previewed);
    const ctx = (versions: Record<string, string>) => ({
      workspace: ws,
      signal: new AbortController().signal,
      fileVersions: versions,
      onProgress: () => undefined,
      previewed,
    });
    // The previewed plan is what runs: handed a different input for the same intent, the file gets
    // the diff's content — proof that execute did not plan again.
    const other = { path: 'a.txt', edits: [{ search: 'two', replace: 'REPLANNED' }] };
    const versions = { 'a.txt': previewed.baseHash! };
    const ran = await editFileTool.execute(other, ctx(versions));
    assert.equal(ran.ok, true, ran.content);
    assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'one\nSHOWN\n');

    // The file changed since the diff (a new hash): the preview is not used; the call plans on the bytes it reads.
    writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
    const now = (await ws.readFile('a.txt')) as Uint8Array;
    const { contentHash } = await import('../../../src/kernel/index.js');
    const again = await editFileTool.execute(other, ctx({ 'a.txt': contentHash(now) }));
    assert.equal(again.ok, true, again.content);
    assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'one\nREPLANNED\nthree\n');
  });
});
