// Kernel ModelRequest → OpenAI chat-completions request, in the dialect every
// OpenAI-compatible server understands: one `role: "tool"` message per result (under the
// server's own call id), images as data URLs, usage asked for at the end of the stream, a
// tool turn's reasoning sent back, and the model's and server's rules (which token field, the
// reasoning setting's fields) as the adapter resolved them.
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ImagePart, ModelMessage, ModelRequest, ToolSchema } from '../kernel/contracts/index.js';
import { REASONING_FIELDS } from './chat-content.js';
import { userContent, type ContentParts } from './user-content.js';

export interface OpenAIRequestOptions {
  model: string;
  maxOutputTokens: number;
  vision: boolean;
  /** OpenAI's reasoning models refuse `max_tokens`; many local servers only know it. */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** False: the server refuses `stream_options` (Mistral). */
  streamOptions: boolean;
  /** False: the server refuses a turn's reasoning on its assistant message (Groq). */
  returnReasoning: boolean;
  /** The reasoning setting's fields for this model (`reasoning_effort`, DeepSeek's `thinking`). */
  reasoningFields: Record<string, unknown>;
}

/** Reasoning formats (kernel Reasoning.format) sent back, each in the field it came in. */
const RETURNED_REASONING = new Set<string>(REASONING_FIELDS);

export function toOpenAIParams(req: ModelRequest, o: OpenAIRequestOptions): ChatCompletionCreateParamsStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  if (req.system) messages.push({ role: 'system', content: req.system });
  for (const m of req.messages) messages.push(toMessage(m, o));
  const params: ChatCompletionCreateParamsStreaming = { model: o.model, messages, stream: true };
  if (o.streamOptions) params.stream_options = { include_usage: true };
  params[o.maxTokensField] = req.maxOutputTokens ?? o.maxOutputTokens;
  if (req.tools.length > 0) params.tools = req.tools.map(toTool);
  // An episode note is a summary: it goes at the model's default reasoning.
  if (req.purpose !== 'note') Object.assign(params, o.reasoningFields);
  return params;
}

function toMessage(m: ModelMessage, o: OpenAIRequestOptions): ChatCompletionMessageParam {
  switch (m.role) {
    case 'user':
      return { role: 'user', content: userContent(m, o.vision, CHAT_PARTS) };
    case 'assistant':
      return assistantMessage(m, o.returnReasoning);
    case 'tool_result':
      // Chat completions has no error flag on a tool message: say it in the content.
      // …nor images: they are named in a note.
      return { role: 'tool', tool_call_id: m.providerRef, content: (m.isError ? `Error: ${m.content}` : m.content) + imagesNote(m.images) };
  }
}

/**
 * A turn that called tools carries its reasoning back, in the field it came in: DeepSeek's
 * reasoner and Kimi's thinking models answer 400 without it. A turn without calls goes without:
 * those APIs ignore it there, and some older servers refuse it.
 */
function assistantMessage(m: Extract<ModelMessage, { role: 'assistant' }>, returnReasoning: boolean): ChatCompletionMessageParam {
  if (m.toolCalls.length === 0) return { role: 'assistant', content: m.text };
  const message: ChatCompletionMessageParam & Record<string, unknown> = {
    role: 'assistant',
    content: m.text === '' ? null : m.text,
    tool_calls: m.toolCalls.map((c) => ({
      id: c.providerRef,
      type: 'function' as const,
      function: { name: c.tool, arguments: JSON.stringify(c.input ?? {}) },
    })),
  };
  const r = m.reasoning;
  if (returnReasoning && r && RETURNED_REASONING.has(r.format))
    message[r.format] = r.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
  return message;
}

function imagesNote(images: ImagePart[] | undefined): string {
  return images?.length ? `\n[${images.length} image(s) left out: tool results cannot carry images on this API]` : '';
}

function toTool(t: ToolSchema): ChatCompletionTool {
  const { $schema: _ignored, ...parameters } = t.inputSchema;
  return { type: 'function', function: { name: t.name, description: t.description, parameters } };
}

const CHAT_PARTS: ContentParts<ChatCompletionContentPart> = {
  text: (text) => ({ type: 'text', text }),
  image: (img) => ({ type: 'image_url', image_url: { url: `data:${img.mediaType};base64,${img.data}` } }),
};
