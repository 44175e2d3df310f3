// Every tool Keel ships is named on its card in words, never by its internal id.
import assert from 'node:assert/strict';
import { allTools } from '../../../src/tools/index.js';
import { toolTitle } from '../../../media/tool-titles.js';

describe('webview: tool titles', () => {
  it('gives every built-in tool a title in words', () => {
    const untitled = allTools.map((t) => t.name).filter((name) => toolTitle(name) === name);
    assert.deepEqual(untitled, []);
  });
});
