// Kernel ModelRequest → OpenAI Responses API request. The conversation is a list of input items:
// user messages; an assistant turn as its reasoning items (sent back exactly as they came, with
// their `encrypted_content`), its text, then one `function_call` item per call; each tool result
// as a `function_call_output` under the call's `call_id`. Nothing is stored at OpenAI
// (`store: false`): the reasoning's encrypted content is asked for (`include`) so it can go back.
import type {
  ResponseCreateParamsStreaming,
  ResponseFunctionCallOutputItemList,
  ResponseInputContent,
  ResponseInputItem,
  Tool,
} from 'openai/resources/responses/responses';
import type { ImagePart, ModelMessage, ModelRequest, ToolSchema } from '../kernel/contracts/index.js';
import { imagesLeftOut } from '../kernel/attachments.js';
import { RESPONSES_REASONING } from './responses-stream.js';
import { userContent, type ContentParts } from './user-content.js';

export interface ResponsesRequestOptions {
  model: string;
  maxOutputTokens: number;
  vision: boolean;
  /** The model reasons: its summaries are asked for and its reasoning items kept (encrypted) to send back. */
  reasons: boolean;
  /** The reasoning setting as this model takes it (`low` … `high`); absent: the model's default. */
  effort?: 'low' | 'medium' | 'high';
}

export function toResponsesParams(req: ModelRequest, o: ResponsesRequestOptions): ResponseCreateParamsStreaming {
  const input: ResponseInputItem[] = [];
  for (const m of req.messages) input.push(...toItems(m, o.vision));
  const params: ResponseCreateParamsStreaming = {
    model: o.model,
    input,
    stream: true,
    store: false,
    max_output_tokens: req.maxOutputTokens ?? o.maxOutputTokens,
  };
  if (req.system) params.instructions = req.system;
  if (req.tools.length > 0) params.tools = req.tools.map(toTool);
  if (o.reasons) {
    params.include = ['reasoning.encrypted_content'];
    // An episode note is a summary: it goes at the model's default reasoning.
    params.reasoning = { summary: 'auto', ...(o.effort && req.purpose !== 'note' ? { effort: o.effort } : {}) };
  }
  return params;
}

function toItems(m: ModelMessage, vision: boolean): ResponseInputItem[] {
  switch (m.role) {
    case 'user':
      return [{ role: 'user', content: userContent(m, vision, RESPONSES_PARTS) }];
    case 'assistant':
      return assistantItems(m);
    case 'tool_result':
      return [{ type: 'function_call_output', call_id: m.providerRef, output: toolOutput(m, vision) }];
  }
}

/** The turn's reasoning items first (the API wants them before the calls they led to), then its text and calls. */
function assistantItems(m: Extract<ModelMessage, { role: 'assistant' }>): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  // A reasoning item must be followed by the output it led to: a turn with none sends it not.
  const followed = m.text !== '' || m.toolCalls.length > 0;
  if (followed && m.reasoning?.format === RESPONSES_REASONING)
    for (const b of m.reasoning.blocks)
      if (b.type === 'encrypted')
        items.push({
          type: 'reasoning',
          id: b.id ?? '',
          summary: (b.summary ?? []).map((text) => ({ type: 'summary_text' as const, text })),
          encrypted_content: b.data,
        });
  if (m.text !== '') items.push({ role: 'assistant', content: m.text });
  for (const c of m.toolCalls)
    items.push({ type: 'function_call', call_id: c.providerRef, name: c.tool, arguments: JSON.stringify(c.input ?? {}) });
  return items;
}

/** A tool result's text, with its images beside it where the model sees images. */
function toolOutput(m: Extract<ModelMessage, { role: 'tool_result' }>, vision: boolean): string | ResponseFunctionCallOutputItemList {
  // The Responses API has no error flag on an output: say it in the text.
  const text = m.isError ? `Error: ${m.content}` : m.content;
  const images = m.images ?? [];
  if (images.length === 0) return text;
  if (!vision) return `${text}\n${imagesLeftOut(images.length)}`;
  return [{ type: 'input_text', text }, ...images.map(imageContent)];
}

function imageContent(img: ImagePart): { type: 'input_image'; detail: 'auto'; image_url: string } {
  return { type: 'input_image', detail: 'auto', image_url: `data:${img.mediaType};base64,${img.data}` };
}

function toTool(t: ToolSchema): Tool {
  const { $schema: _ignored, ...parameters } = t.inputSchema;
  // Not strict: strict mode demands every property be required, which Keel's schemas are not.
  return { type: 'function', name: t.name, description: t.description, parameters, strict: false };
}

const RESPONSES_PARTS: ContentParts<ResponseInputContent> = { text: (text) => ({ type: 'input_text', text }), image: imageContent };
