// `keel run --output json|jsonl` as a script runs it: the real CLI against the model stand-in on
// 127.0.0.1, a copy of examples/failing-tests, and the result checked against the JSON Schema
// committed in schemas/ (and that file against the zod schema it is generated from).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { spawnKeel } from '../../support/keel-cli.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { runResultJsonSchema } from '../../support/run-result-schema.js';
import { scratchDir } from '../../support/scratch.js';
import { fixerModel, fixLine } from '../../e2e/lib/fixer-model.js';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE = path.join(ROOT, 'examples', 'failing-tests');
const SCHEMA_FILE = path.join(ROOT, 'schemas', 'run-result.schema.json');
const ENV = { XDG_CONFIG_HOME: scratchDir('out-config'), XDG_CACHE_HOME: scratchDir('out-cache') };

function validator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  return ajv.compile(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')));
}

function assertValid(result: unknown): void {
  const validate = validator();
  assert.ok(validate(result), JSON.stringify(validate.errors, null, 2));
}

describe('keel run --output json|jsonl', function () {
  this.timeout(60_000);
  let server: ModelServer | undefined;
  let work: string;

  beforeEach(() => {
    work = scratchDir('out-work');
    fs.cpSync(EXAMPLE, work, { recursive: true });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('keeps schemas/run-result.schema.json equal to the zod schema it documents', () => {
    const committed = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8'));
    assert.deepEqual(committed, runResultJsonSchema(), 'run `node --import=tsx scripts/write-schemas.ts`');
  });

  it('prints one result that the schema accepts: files changed, the patch, the last test, exit 0', async () => {
    server = await startModelServer(fixerModel());
    const log = path.join(scratchDir('out-log'), 'task.jsonl');
    const run = await spawnKeel(
      [
        'run',
        '--workspace',
        work,
        '--base-url',
        server.anthropicBaseURL,
        '--approve',
        'all',
        '--log',
        log,
        '--output',
        'json',
        'fix the tests',
      ],
      ROOT,
      ENV,
    );
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assertValid(result);
    assert.equal(result.status, 'done');
    assert.equal(result.exitCode, 0);
    assert.deepEqual(result.filesChanged, [{ path: 'src/price.js', change: 'modified', added: 1, removed: 1 }]);
    assert.match(result.patch, /^--- a\/src\/price\.js\n\+\+\+ b\/src\/price\.js\n@@/);
    assert.ok(result.patch.includes(`+  ${fixLine}`), result.patch);
    assert.equal(result.lastTest.ok, true);
    assert.ok(result.lastTest.passed > 0);
    assert.equal(result.log, log);
    assert.ok(result.tokens.input > 0 && result.costUsd > 0 && result.turns >= 3);
    assert.match(result.answer, /All tests pass now/);
  });

  it('streams events as JSON lines, then the result last', async () => {
    server = await startModelServer(fixerModel());
    const run = await spawnKeel(
      ['run', '--workspace', work, '--base-url', server.anthropicBaseURL, '--approve', 'all', '--output', 'jsonl', 'fix the tests'],
      ROOT,
      ENV,
    );
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const last = lines.pop();
    assert.equal(last.type, 'result');
    assertValid(last.result);
    assert.ok(lines.every((l) => l.type === 'event' && typeof l.event.seq === 'number'));
    assert.deepEqual(
      lines.map((l) => l.event.seq),
      lines.map((_, i) => i + 1),
      'every event, in order',
    );
    assert.ok(lines.some((l) => l.event.type === 'intent_proposed' && l.event.intent.tool === 'edit_file'));
  });

  it('exits 3 with status refused when a call needed an approval nobody could give', async () => {
    server = await startModelServer(fixerModel());
    const run = await spawnKeel(
      ['run', '--workspace', work, '--base-url', server.anthropicBaseURL, '--output', 'json', 'fix the tests'],
      ROOT,
      ENV,
    );
    assert.equal(run.code, 3, run.stderr);
    const result = JSON.parse(run.stdout);
    assertValid(result);
    assert.equal(result.status, 'refused');
    // Nobody could answer (no terminal): refused as unanswered, not rejected by a person.
    assert.equal(result.refusals[0].code, 'permission_denied');
    assert.equal(result.refusals[0].unanswered, true);
    assert.deepEqual(result.filesChanged, []);
    assert.equal(result.patch, '');
  });

  it('stops at --max-tokens with status over_budget, exit 1, and keeps the partial result', async () => {
    server = await startModelServer(fixerModel());
    const run = await spawnKeel(
      [
        'run',
        '--workspace',
        work,
        '--base-url',
        server.anthropicBaseURL,
        '--approve',
        'all',
        '--max-tokens',
        '150',
        '--output',
        'json',
        'fix',
      ],
      ROOT,
      ENV,
    );
    assert.equal(run.code, 1, run.stderr);
    const result = JSON.parse(run.stdout);
    assertValid(result);
    assert.equal(result.status, 'over_budget');
    assert.match(result.reason, /token cap/);
    assert.ok(server.requests.length < 4, 'stopped early');
  });

  it('exits 1 with status failed when the model errors, and 2 on a bad --output', async () => {
    server = await startModelServer(() => ({
      type: 'json',
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'bad request' } },
    }));
    const run = await spawnKeel(['run', '--workspace', work, '--base-url', server.anthropicBaseURL, '--output', 'json', 'x'], ROOT, ENV);
    assert.equal(run.code, 1, run.stderr);
    const result = JSON.parse(run.stdout);
    assertValid(result);
    assert.equal(result.status, 'failed');
    const bad = await spawnKeel(['run', '--output', 'yaml', 'x'], ROOT, ENV);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--output must be one of text, json, jsonl/);
  });

  it('refuses --max-cost for a model without a known price (usage, exit 2)', async () => {
    const run = await spawnKeel(['run', '--workspace', work, '--model', 'my-local-model', '--max-cost', '1', 'x'], ROOT, ENV);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stderr, /--max-cost needs a model whose price Keel knows/);
  });
});
