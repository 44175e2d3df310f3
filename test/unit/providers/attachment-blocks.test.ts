import assert from 'node:assert/strict';
import type { Attachment, ModelRequest } from '../../../src/kernel/index.js';
import { contentHash } from '../../../src/kernel/text.js';
import { toAnthropicParams } from '../../../src/providers/anthropic-request.js';
import { toOpenAIParams } from '../../../src/providers/openai-request.js';

const attachment: Attachment = {
  kind: 'problems',
  label: 'Problems (1)',
  content: 'src/a.ts:3 error TS2322',
  contentHash: contentHash('src/a.ts:3 error TS2322'),
};
const png = { mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' };
const request: ModelRequest = {
  system: 'sys',
  tools: [],
  messages: [{ role: 'user', text: 'fix it', images: [png], attachments: [attachment] }],
};

describe('request builders with attachments and images', () => {
  it('Anthropic: each attachment a delimited text block, then the image block, then the words', () => {
    const params = toAnthropicParams(request, { model: 'claude-sonnet-4-5', maxOutputTokens: 100, vision: true, promptCaching: false });
    const blocks = params.messages[0]!.content as { type: string; text?: string; source?: unknown }[];
    assert.deepEqual(
      blocks.map((b) => b.type),
      ['text', 'image', 'text'],
    );
    assert.match(blocks[0]!.text!, /^<attachment kind="problems" label="Problems \(1\)">[\s\S]*src\/a\.ts:3 error TS2322\n<\/attachment>$/);
    assert.deepEqual(blocks[1]!.source, { type: 'base64', media_type: 'image/png', data: png.data });
    assert.equal(blocks[2]!.text, 'fix it');
  });

  it('Anthropic without vision: the image is left out with a notice, the attachment stays', () => {
    const params = toAnthropicParams(request, { model: 'x', maxOutputTokens: 100, vision: false, promptCaching: false });
    const blocks = params.messages[0]!.content as { type: string; text?: string }[];
    assert.deepEqual(
      blocks.map((b) => b.type),
      ['text', 'text', 'text'],
    );
    assert.match(blocks[1]!.text!, /1 image\(s\) left out/);
  });

  it('OpenAI with vision: text parts for attachments, an image_url data URL, then the words', () => {
    const params = toOpenAIParams(request, {
      model: 'gpt-4o',
      maxOutputTokens: 100,
      vision: true,
      maxTokensField: 'max_tokens',
      streamOptions: true,
      returnReasoning: true,
      reasoningFields: {},
    });
    const parts = params.messages[1]!.content as { type: string; text?: string; image_url?: { url: string } }[];
    assert.deepEqual(
      parts.map((p) => p.type),
      ['text', 'image_url', 'text'],
    );
    assert.match(parts[0]!.text!, /<attachment kind="problems"/);
    assert.equal(parts[1]!.image_url!.url, `data:image/png;base64,${png.data}`);
  });

  it('OpenAI-compatible text-only server: one string with the attachment, the notice and the words', () => {
    const params = toOpenAIParams(request, {
      model: 'llama',
      maxOutputTokens: 100,
      vision: false,
      maxTokensField: 'max_tokens',
      streamOptions: true,
      returnReasoning: true,
      reasoningFields: {},
    });
    const content = params.messages[1]!.content as string;
    assert.equal(typeof content, 'string');
    assert.match(content, /^<attachment kind="problems"[\s\S]*<\/attachment>\n\n\[1 image\(s\) left out[^\]]*\]\n\nfix it$/);
  });
});
