// A tool's successful output reaches the model and the log with its credentials redacted, and
// the model, having read [redacted], cannot write the marker back over the secret: a write or
// an edit that would is refused and the file keeps its value, while an edit around it works. A
// new file, or a file holding no credential, may hold the marker as ordinary text. The composed
// runtime (both hosts' path), a real workspace on disk, the real log file. (The file is not
// named .npmrc, a protected path whose writes always ask.)
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { composeRuntime } from '../../../src/compose/index.js';
import { REDACTED, type RuntimeEvent } from '../../../src/kernel/index.js';
import { JsonlLogStore } from '../../../src/node/jsonl-store.js';
import { createNodeWorkspace } from '../../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn, toolTurn } from '../../../src/providers/scripted.js';
import { scratchDir } from '../../support/scratch.js';
import { secretCorpus } from '../../support/secret-corpus.js';
import { drain } from '../kernel/helpers.js';

const token = secretCorpus().find((s) => s.name === 'npmrc auth token')!;
const NPMRC = `registry=https://registry.npmjs.org/\n${token.text}\n`;
const settings = { maxTurns: 20, autoApprove: ['read' as const, 'write' as const], commandsAllow: [], commandsDeny: [] };

async function run(files: Record<string, string>, calls: ReturnType<typeof toolTurn>[]) {
  const dir = scratchDir('redacted-output');
  const root = path.join(dir, 'ws');
  fs.mkdirSync(root);
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), text);
  const logPath = path.join(dir, 'task.jsonl');
  const store = JsonlLogStore.open(logPath);
  const provider = new ScriptedProvider([...calls, textTurn('Done.')]);
  const runtime = composeRuntime({
    provider,
    settings,
    workspace: await createNodeWorkspace(root),
    trusted: () => true,
    interactive: false,
    store,
  });
  await drain(runtime.send('tidy the npm config'));
  await store.close();
  const observations = runtime
    .getEvents()
    .filter((e): e is Extract<RuntimeEvent, { type: 'observation' }> => e.type === 'observation')
    .map((e) => e.observation);
  return { root, log: fs.readFileSync(logPath, 'utf8'), provider, observations };
}

const read = toolTurn('read_file', { path: 'npmrc' }, '', 'r1');

describe('compose: redacted tool output, and no edit writes the marker over a secret', function () {
  this.timeout(30_000);

  it('a successful read reaches the model and the log without the token, the rest of the file intact', async () => {
    const { log, provider, observations } = await run({ npmrc: NPMRC }, [read]);
    assert.equal(observations[0]?.ok, true);
    const sent = JSON.stringify(provider.requests.at(-1));
    assert.ok(!sent.includes(token.secret) && !log.includes(token.secret));
    assert.match(sent, /registry=https:\/\/registry\.npmjs\.org\//);
    assert.ok(sent.includes(`_authToken=${REDACTED}`));
  });

  it('write_file with the redacted text is refused and the file keeps its token; an edit around it applies', async () => {
    const seen = `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=${REDACTED}\n`;
    const { root, observations } = await run({ npmrc: NPMRC }, [
      read,
      toolTurn('write_file', { path: 'npmrc', content: `${seen}save-exact=true\n` }, '', 'w1'),
      toolTurn('edit_file', { path: 'npmrc', edits: [{ search: seen, replace: `${seen}save-exact=true\n` }] }, '', 'e1'),
      toolTurn(
        'edit_file',
        {
          path: 'npmrc',
          edits: [{ search: 'registry=https://registry.npmjs.org/\n', replace: 'registry=https://registry.npmjs.org/\nsave-exact=true\n' }],
        },
        '',
        'e2',
      ),
    ]);
    const [, write, markerEdit, aroundEdit] = observations;
    assert.equal(write?.ok, false);
    assert.match(write!.content, /holds a credential that was shown to you as \[redacted\]/);
    assert.equal(markerEdit?.ok, false);
    assert.match(markerEdit!.content, /A search holds \[redacted\].*leave those lines out/);
    assert.equal(aroundEdit?.ok, true, aroundEdit?.content);
    assert.equal(
      fs.readFileSync(path.join(root, 'npmrc'), 'utf8'),
      `registry=https://registry.npmjs.org/\nsave-exact=true\n${token.text}\n`,
    );
  });

  it('a new file, or one holding no credential, may hold the marker as text', async () => {
    const { root, observations } = await run({ 'notes.md': 'Redaction shows:\n' }, [
      toolTurn('write_file', { path: 'fixture.txt', content: `token=${REDACTED}\n` }, '', 'w1'),
      toolTurn('read_file', { path: 'notes.md' }, '', 'r2'),
      toolTurn(
        'edit_file',
        { path: 'notes.md', edits: [{ search: 'Redaction shows:\n', replace: `Redaction shows: ${REDACTED}\n` }] },
        '',
        'e1',
      ),
    ]);
    assert.deepEqual(
      observations.map((o) => o.ok),
      [true, true, true],
    );
    assert.equal(fs.readFileSync(path.join(root, 'fixture.txt'), 'utf8'), `token=${REDACTED}\n`);
    assert.equal(fs.readFileSync(path.join(root, 'notes.md'), 'utf8'), `Redaction shows: ${REDACTED}\n`);
  });
});
