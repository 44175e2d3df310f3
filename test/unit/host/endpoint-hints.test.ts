// keel.baseUrl written without its scheme ("localhost:11434/v1", as Ollama users type it) is
// named as the endpoint problem it is — the setting and the URL meant — on every surface that
// would otherwise say "No OpenAI API key is set": the hints (banner, welcome line) and the run.
// And Show Log writes a line repeated right after itself once, with a count.
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { keyHints } from '../../../src/host/keys/api-key.js';
import { HostProvider } from '../../../src/host/runtime/host-provider.js';
import { readSettings } from '../../../src/host/settings/settings.js';
import type { ModelEvent } from '../../../src/kernel/index.js';
import { redactingLog } from '../../../src/vscode/keel-log.js';

describe('host: an endpoint setting Keel cannot send to', () => {
  it('is the hint instead of a missing key, naming the setting and the URL meant', () => {
    const bad = keyHints('localhost:11434/v1', 'missing');
    assert.equal(bad.noApiKey, false, 'no "No API key" banner for it');
    assert.match(bad.endpoint ?? '', /keel\.baseUrl must start with http:\/\/ or https:\/\//);
    assert.match(bad.endpoint ?? '', /Did you mean "http:\/\/localhost:11434\/v1"\?/);
    assert.deepEqual(keyHints('http://localhost:11434/v1', 'not_needed'), { noApiKey: false, endpoint: undefined });
    assert.deepEqual(keyHints(undefined, 'missing'), { noApiKey: true, endpoint: undefined });
  });

  it('fails the run with the same words, never "No OpenAI API key is set"', async () => {
    const settings = readSettings((k) => ({
      globalValue: k === 'provider' ? 'openai' : k === 'baseUrl' ? 'localhost:11434/v1' : undefined,
    }));
    const provider = new HostProvider({
      settings,
      lookupKey: async () => ({ kind: 'missing', provider: 'openai', message: 'No OpenAI API key is set.' }),
      allowKeyDestination: async () => true,
    });
    const events: ModelEvent[] = [];
    for await (const e of provider.stream({ system: '', messages: [], tools: [] } as never, new AbortController().signal)) events.push(e);
    const error = events[0]?.type === 'error' ? events[0].error : undefined;
    assert.match(error?.message ?? '', /keel\.baseUrl must start with http/);
    assert.doesNotMatch(error?.message ?? '', /API key/);
  });
});

describe('vscode: the Keel log', () => {
  it('writes a line repeated right after itself once, then how many more times it came', () => {
    const lines: string[] = [];
    const channel = {
      info: (m: string) => lines.push(`info ${m}`),
      warn: (m: string) => lines.push(`warn ${m}`),
      error: (m: string) => lines.push(`error ${m}`),
      show: () => {},
    };
    const log = redactingLog(channel as unknown as vscode.LogOutputChannel, () => []);
    for (let i = 0; i < 5; i++) log.warn('task t1 failed: Could not connect to http://127.0.0.1:9/v1');
    log.info('next');
    log.info('next');
    log.show();
    assert.deepEqual(lines, [
      'warn task t1 failed: Could not connect to http://127.0.0.1:9/v1',
      'info (the line above came 4 more times)',
      'info next',
      'info (the line above came 1 more time)',
    ]);
  });
});
