// Kernel ModelRequest → OpenAI chat-completions request, in the dialect every
// OpenAI-compatible server understands: one `role: "tool"` message per result (under the
// server's own call id), images as data URLs, usage asked for at the end of the stream.
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ImagePart, ModelMessage, ModelRequest, ToolSchema } from '../kernel/contracts/index.js';
import { imagesLeftOut, renderAttachment } from '../kernel/attachments.js';

export interface OpenAIRequestOptions {
  model: string;
  maxOutputTokens: number;
  vision: boolean;
  /** OpenAI's reasoning models refuse `max_tokens`; many local servers only know it. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

export function toOpenAIParams(req: ModelRequest, o: OpenAIRequestOptions): ChatCompletionCreateParamsStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  if (req.system) messages.push({ role: 'system', content: req.system });
  for (const m of req.messages) messages.push(toMessage(m, o.vision));
  const params: ChatCompletionCreateParamsStreaming = {
    model: o.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  params[o.maxTokensField] = req.maxOutputTokens ?? o.maxOutputTokens;
  if (req.tools.length > 0) params.tools = req.tools.map(toTool);
  return params;
}

function toMessage(m: ModelMessage, vision: boolean): ChatCompletionMessageParam {
  switch (m.role) {
    case 'user':
      return { role: 'user', content: userContent(m, vision) };
    case 'assistant':
      if (m.toolCalls.length === 0) return { role: 'assistant', content: m.text };
      return {
        role: 'assistant',
        content: m.text === '' ? null : m.text,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.providerRef,
          type: 'function' as const,
          function: { name: c.tool, arguments: JSON.stringify(c.input ?? {}) },
        })),
      };
    case 'tool_result':
      // Chat completions has no error flag on a tool message: say it in the content.
      // …nor images: they are named in a note.
      return { role: 'tool', tool_call_id: m.providerRef, content: (m.isError ? `Error: ${m.content}` : m.content) + imagesNote(m.images) };
  }
}

function imagesNote(images: ImagePart[] | undefined): string {
  return images?.length ? `\n[${images.length} image(s) left out: tool results cannot carry images on this API]` : '';
}

/**
 * Attachments, images, then the user's words. Without an image to send it stays one string:
 * many OpenAI-compatible servers for text-only models accept nothing else.
 */
function userContent(m: Extract<ModelMessage, { role: 'user' }>, vision: boolean): string | ChatCompletionContentPart[] {
  const images = m.images ?? [];
  const texts = (m.attachments ?? []).map(renderAttachment);
  if (!vision || images.length === 0) {
    if (images.length) texts.push(imagesLeftOut(images.length));
    if (m.text !== '' || texts.length === 0) texts.push(m.text);
    return texts.join('\n\n');
  }
  const parts: ChatCompletionContentPart[] = texts.map((text) => ({ type: 'text', text }));
  for (const img of images) parts.push({ type: 'image_url', image_url: { url: `data:${img.mediaType};base64,${img.data}` } });
  if (m.text !== '') parts.push({ type: 'text', text: m.text });
  return parts;
}

function toTool(t: ToolSchema): ChatCompletionTool {
  const { $schema: _ignored, ...parameters } = t.inputSchema;
  return { type: 'function', function: { name: t.name, description: t.description, parameters } };
}
