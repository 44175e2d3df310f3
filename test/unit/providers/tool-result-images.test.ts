// Images an MCP tool returned reach the model in its tool result where the API and the model
// take them (Anthropic with vision), and are named in a note where they do not.
import assert from 'node:assert/strict';
import type { ModelRequest } from '../../../src/kernel/index.js';
import { toAnthropicParams } from '../../../src/providers/anthropic-request.js';
import { toOpenAIParams } from '../../../src/providers/openai-request.js';

const png = { mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' };
const request: ModelRequest = {
  system: 'sys',
  tools: [],
  messages: [
    { role: 'user', text: 'show me' },
    { role: 'assistant', text: '', toolCalls: [{ intentId: 'i1', providerRef: 'call_1', tool: 'mcp__s__img', input: {} }] },
    {
      role: 'tool_result',
      intentId: 'i1',
      providerRef: 'call_1',
      tool: 'mcp__s__img',
      content: 'here [image 1: image/png]',
      isError: false,
      images: [png],
    },
  ],
};

type Block = { type: string; text?: string; source?: unknown; content?: unknown };

function toolResult(vision: boolean): Block {
  const params = toAnthropicParams(request, { model: 'claude-sonnet-4-5', maxOutputTokens: 100, vision, promptCaching: false });
  return (params.messages[2]!.content as Block[]).find((b) => b.type === 'tool_result')!;
}

describe('tool results with images', () => {
  it('Anthropic with vision: the text, then the image inside the tool_result', () => {
    const content = toolResult(true).content as Block[];
    assert.deepEqual(
      content.map((b) => b.type),
      ['text', 'image'],
    );
    assert.deepEqual(content[1]!.source, { type: 'base64', media_type: 'image/png', data: png.data });
  });

  it('Anthropic without vision, and OpenAI tool messages: a note instead of the image', () => {
    assert.match(toolResult(false).content as string, /1 image\(s\) left out/);
    const params = toOpenAIParams(request, {
      model: 'gpt-4o',
      maxOutputTokens: 100,
      vision: true,
      maxTokensField: 'max_tokens',
      streamOptions: true,
      returnReasoning: true,
      reasoningFields: {},
    });
    const tool = params.messages.find((m) => m.role === 'tool')!;
    assert.match(tool.content as string, /^here \[image 1: image\/png\]\n\[1 image\(s\) left out/);
  });
});
