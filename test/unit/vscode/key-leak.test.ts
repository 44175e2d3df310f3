// The audit's bug, reproduced through the real SDKs against a local server: a key an HTTP header
// cannot carry made undici's error quote it, and that message reached the task log, Keel's log
// and the view. Now such a key is refused before any request, and should an error quote a key
// anyway, it is redacted before it becomes an event, a log line or view text.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type * as vscode from 'vscode';
import { secretDetector } from '../../../src/compose/index.js';
import { redactSecrets, type ModelProvider } from '../../../src/kernel/index.js';
import { JsonlLogStore, loadLog } from '../../../src/node/jsonl-store.js';
import { classifyAnthropicError } from '../../../src/providers/anthropic.js';
import { withoutKey } from '../../../src/providers/errors.js';
import { classifyOpenAIError } from '../../../src/providers/openai.js';
import type { HostMessage } from '../../../src/protocol/index.js';
import { redactingLog } from '../../../src/vscode/keel-log.js';
import { RuntimeFactory } from '../../../src/host/runtime/runtime-factory.js';
import { Session } from '../../../src/host/session/session.js';
import { readSettings } from '../../../src/host/settings/settings.js';
import { TaskStore } from '../../../src/host/tasks/task-store.js';
import { startModelServer, type ModelServer } from '../../support/model-server.js';
import { scratchDir } from '../../support/scratch.js';
import { VENDORS, run } from '../providers/vendors.js';

/** A key with a line break in it (a bad paste): undici's header error quotes the whole value. */
const BAD_KEY = 'sk-ant-api03-LEAKHEAD0123\nLEAKTAIL4567';
const PIECES = ['LEAKHEAD0123', 'LEAKTAIL4567'];
const leaks = (text: string) => PIECES.filter((p) => text.includes(p));

/** The extension's composition minus VS Code: factory, task store on disk, session and view messages. */
function extensionWorld(server: ModelServer, provider: ModelProvider | undefined) {
  const dir = scratchDir('key-leak');
  const posted: HostMessage[] = [];
  const logLines: string[] = [];
  const channel = {
    info: (m: string) => logLines.push(m),
    warn: (m: string) => logLines.push(m),
    error: (...a: string[]) => logLines.push(a.join(' ')),
  };
  const log = redactingLog(channel as unknown as vscode.LogOutputChannel, () => [BAD_KEY]);
  const factory = new RuntimeFactory({
    settings: () => readSettings((k) => ({ globalValue: k === 'baseUrl' ? server.anthropicBaseURL : undefined })),
    workspace: undefined,
    grants: { list: () => [], add: () => undefined },
    trusted: () => true,
    lookupKey: async () => ({ kind: 'found', key: BAD_KEY, source: 'secret' }),
    allowKeyDestination: async () => true,
    secrets: () => [BAD_KEY],
    onRequest: () => undefined,
    providerOverride: () => provider,
  });
  const tasks = new TaskStore({
    dir,
    logs: { load: async (f) => (existsSync(f) ? loadLog(f).events : []), open: async (f) => JsonlLogStore.open(f) },
    createRuntime: (init) => factory.create(init),
    // What the extension logs when a task fails (src/vscode/build/tasks.ts).
    onStatus: (task, status) => {
      if (status === 'failed') log.warn(`task ${task.id} failed: ${task.getState().lastError?.message ?? 'unknown error'}`);
    },
  });
  const session = new Session({
    tasks,
    post: (m) => posted.push(m),
    keyMissing: async () => false,
    trusted: () => true,
    model: () => ({ contextWindow: 0, price: undefined }),
    focusIntent: async () => false,
    watch: () => () => undefined,
    setContext: () => undefined,
    log,
  });
  return { tasks, session, posted, logLines, dir };
}

async function failOnce(w: ReturnType<typeof extensionWorld>): Promise<string> {
  await w.tasks.init();
  const task = await w.session.send('hello');
  await task.idle();
  await w.tasks.flush();
  assert.equal(task.getState().status, 'failed');
  await new Promise((r) => setTimeout(r, 40)); // the presenter's next frame
  w.session.presenter.postSnapshot();
  return task.id;
}

describe('API keys never leak into errors (real SDKs, local server)', function () {
  this.timeout(15_000);
  let server: ModelServer | undefined;
  afterEach(async () => server?.close());

  for (const vendor of VENDORS) {
    it(`${vendor.name}: a key no header can carry is refused before any request, and not quoted`, async () => {
      server = await startModelServer([]);
      const events = await run(vendor.provider(server, { apiKey: BAD_KEY }));
      assert.equal(events.length, 1);
      const error = events[0]!.type === 'error' ? events[0]!.error : undefined;
      assert.equal(error?.kind, 'auth');
      assert.equal(error?.retryable, false, 'not retried five times either');
      assert.deepEqual(leaks(error?.message ?? ''), []);
      assert.equal(server.requests.length, 0, 'nothing reached the server');
    });
  }

  it('the SDK’s own header error, classified, carries no piece of the key', async () => {
    server = await startModelServer([]);
    const signal = new AbortController().signal;
    const anthropicError = await new Anthropic({ apiKey: BAD_KEY, baseURL: server.anthropicBaseURL, maxRetries: 0 }).messages
      .create({ model: 'x', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    const openaiError = await new OpenAI({ apiKey: BAD_KEY, baseURL: server.openaiBaseURL, maxRetries: 0 }).chat.completions
      .create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    // The bug as it was: the raw message quotes the key.
    assert.deepEqual(leaks(String((anthropicError as Error).message)), PIECES);
    const vendor = { label: 'Anthropic', keyEnvVar: 'ANTHROPIC_API_KEY' };
    for (const classified of [classifyAnthropicError(anthropicError, signal, vendor), classifyOpenAIError(openaiError, signal, vendor)]) {
      // The adapter removes the key it sends; key-shaped text is the runtime's and the logs' to remove.
      assert.ok(!redactSecrets(classified.message, [], secretDetector()).includes('LEAKHEAD0123'), classified.message);
      assert.deepEqual(leaks(withoutKey(classified, BAD_KEY).message), [], 'and the known key in every piece');
    }
    assert.equal(server.requests.length, 0);
  });

  it('through the extension’s composition: the refusal reaches the task log, Keel’s log and the view without the key', async () => {
    server = await startModelServer([]);
    const w = extensionWorld(server, undefined);
    const id = await failOnce(w);
    const taskLog = readFileSync(path.join(w.dir, `${id}.jsonl`), 'utf8');
    assert.match(taskLog, /run_failed/);
    assert.match(taskLog, /printable ASCII/);
    assert.deepEqual(leaks(taskLog), []);
    assert.match(w.logLines.join('\n'), /failed: .*printable ASCII/);
    assert.deepEqual(leaks(w.logLines.join('\n')), []);
    const view = JSON.stringify(w.posted);
    assert.match(view, /printable ASCII/);
    assert.deepEqual(leaks(view), []);
    assert.equal(server.requests.length, 0);
  });

  it('a provider that lets the SDK’s raw error through still leaks nothing (the kernel redacts)', async () => {
    server = await startModelServer([]);
    const base = server.anthropicBaseURL;
    const naive: ModelProvider = {
      name: 'naive',
      model: 'x',
      capabilities: { tools: true, vision: false, promptCaching: false, contextWindow: 1000, maxOutputTokens: 100 },
      async *stream() {
        yield* [];
        // No pre-check, no classification: the undici error escapes as it is.
        await new Anthropic({ apiKey: BAD_KEY, baseURL: base, maxRetries: 0 }).messages.create({
          model: 'x',
          max_tokens: 1,
          messages: [{ role: 'user', content: 'hi' }],
        });
      },
    };
    const w = extensionWorld(server, naive);
    const id = await failOnce(w);
    const taskLog = readFileSync(path.join(w.dir, `${id}.jsonl`), 'utf8');
    assert.match(taskLog, /invalid header value/, 'the error is there, only the key is not');
    assert.deepEqual(leaks(taskLog), []);
    assert.deepEqual(leaks(w.logLines.join('\n')), []);
    assert.deepEqual(leaks(JSON.stringify(w.posted)), []);
  });

  it('Keel’s log redacts every line, whatever part of the extension writes it', () => {
    const lines: string[] = [];
    const channel = {
      info: (m: string) => lines.push(m),
      warn: (m: string) => lines.push(m),
      error: (...a: string[]) => lines.push(a.join('|')),
    };
    const log = redactingLog(channel as unknown as vscode.LogOutputChannel, () => [BAD_KEY]);
    log.info(`using ${BAD_KEY}`);
    log.warn('x-api-key: something-secret-here');
    log.error('crashed', `TypeError: Headers.append: "Bearer ${BAD_KEY}" is an invalid header value.\n    at fetch`);
    assert.deepEqual(leaks(lines.join('\n')), []);
    assert.ok(!lines.join('\n').includes('something-secret-here'));
  });
});
