import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AttachmentSchema } from '../../../src/kernel/index.js';
import { capabilitiesFor } from '../../../src/providers/models.js';
import { pickerModels } from '../../../src/providers/registry.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import {
  AttachmentRefused,
  changesAttachment,
  fileAttachment,
  folderAttachment,
  makeAttachment,
  PendingAttachments,
  problemsAttachment,
  selectionAttachment,
  terminalAttachment,
} from '../../../src/host/session/attachment-content.js';
import { scratchDir } from '../../support/scratch.js';

async function workspace() {
  const dir = scratchDir('attach');
  mkdirSync(path.join(dir, 'src'));
  mkdirSync(path.join(dir, 'build'));
  writeFileSync(path.join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(dir, 'build', 'out.js'), 'ignored');
  writeFileSync(path.join(dir, '.gitignore'), 'build/\n');
  writeFileSync(path.join(dir, '.env'), 'TOKEN=secret');
  writeFileSync(path.join(dir, 'logo.bin'), Buffer.from([1, 0, 2]));
  writeFileSync(path.join(path.dirname(dir), 'outside.txt'), 'outside');
  return createNodeWorkspace(dir);
}

const refused = (re: RegExp) => (error: unknown) => error instanceof AttachmentRefused && re.test(error.message);

describe('attachment content (the host side of @)', () => {
  it('a file: its text, its workspace path and hash, valid for the log', async () => {
    const ws = await workspace();
    const a = await fileAttachment(ws, 'src/a.ts');
    assert.equal(a.content, 'export const a = 1;\n');
    assert.equal(a.path, 'src/a.ts');
    assert.ok(AttachmentSchema.safeParse(a).success);
  });

  it('refuses what is outside the workspace, may hold secrets, or is binary', async () => {
    const ws = await workspace();
    await assert.rejects(fileAttachment(ws, '../outside.txt'), refused(/outside the workspace/));
    await assert.rejects(fileAttachment(ws, '.env'), refused(/may hold secrets/));
    await assert.rejects(fileAttachment(ws, 'logo.bin'), refused(/binary/));
    await assert.rejects(
      selectionAttachment(ws, path.join(ws.root, '.env'), { startLine: 1, endLine: 1 }, 'TOKEN=secret'),
      refused(/secrets/),
    );
  });

  it('a folder: its listing with the ignore rules honoured and secrets left out', async () => {
    const ws = await workspace();
    const a = await folderAttachment(ws, '');
    assert.deepEqual(a.content.split('\n').sort(), ['.gitignore', 'logo.bin', 'src/', 'src/a.ts']);
  });

  it('a selection carries its absolute file as a workspace path and its lines', async () => {
    const ws = await workspace();
    const a = await selectionAttachment(ws, path.join(ws.root, 'src', 'a.ts'), { startLine: 1, endLine: 1 }, 'export const a');
    assert.deepEqual([a.label, a.path, a.range], ['src/a.ts:1-1', 'src/a.ts', { startLine: 1, endLine: 1 }]);
  });

  it('problems list errors and warnings, one line each', () => {
    const a = problemsAttachment([
      { path: 'src/a.ts', line: 3, column: 5, severity: 'error', message: "Type 'string' is not assignable\nmore", source: 'ts' },
      { path: 'src/b.ts', line: 1, column: 1, severity: 'hint', message: 'unused' },
    ]);
    assert.equal(a.label, 'Problems (1)');
    assert.equal(a.content, "src/a.ts:3:5 error [ts]: Type 'string' is not assignable");
  });

  it('changes and terminal say plainly when there is nothing', () => {
    assert.match(changesAttachment('').content, /No uncommitted changes/);
    assert.throws(() => terminalAttachment('  '), refused(/no output yet/));
  });

  it('@Changes leaves out the diffs of files that may hold secrets, and says so (issue 21)', () => {
    const diff = [
      'diff --git a/src/a.ts b/src/a.ts\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-old\n+new\n',
      'diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-API_KEY=old-secret\n+API_KEY=sk-live-secret\n',
      'diff --git a/config/.env.local b/config/.env.local\nnew file mode 100644\n+TOKEN=abc\n',
      'diff --git a/.env.example b/.env.example\n+API_KEY=\n',
    ].join('');
    const a = changesAttachment(diff);
    assert.doesNotMatch(a.content, /old-secret|sk-live-secret|TOKEN=abc/);
    assert.match(a.content, /\+new/);
    assert.match(a.content, /\.env\.example/, 'a template is not a secret');
    assert.match(a.content, /Left out, may hold secrets: the changes to \.env, config\/\.env\.local/);
  });

  it('cuts a huge content at the cap and hashes the whole of it', () => {
    const huge = 'x'.repeat(200_000);
    const a = makeAttachment('terminal', 'Terminal output', huge);
    assert.equal(a.content.length + (a.cutChars ?? 0), huge.length);
    assert.ok(a.cutChars! > 0);
    assert.equal(a.contentHash, makeAttachment('terminal', 'x', huge).contentHash);
  });

  it('pending attachments are taken once, by id; unknown ids are reported; the oldest go past the limit', () => {
    const pending = new PendingAttachments(2);
    const ids = ['one', 'two', 'three'].map((t) => pending.add(makeAttachment('terminal', t, t)));
    assert.deepEqual(pending.take([ids[0]!, ids[2]!]), { attachments: [makeAttachment('terminal', 'three', 'three')], unknown: [ids[0]] });
    assert.deepEqual(pending.take([ids[2]!]).unknown, [ids[2]], 'taken once');
  });
});

describe('model picker list', () => {
  it('offers each vendor its own models, spelled as the API wants, each resolving to its own row', () => {
    const anthropic = pickerModels('anthropic');
    const openai = pickerModels('openai');
    assert.ok(anthropic.length > 3 && anthropic.every((m) => m.id.startsWith('claude-')));
    assert.ok(openai.some((m) => m.id === 'gpt-4.1') && openai.every((m) => m.id.startsWith('gpt-')));
    for (const m of [...anthropic, ...openai]) {
      const caps = capabilitiesFor(m.id);
      assert.deepEqual([caps.contextWindow, caps.vision], [m.contextWindow, m.vision], m.id);
    }
  });
});
