// The OpenAI chat-completions streaming wire format, as its API reference documents it:
// `data: {chat.completion.chunk}` lines (role first, then content / tool_calls deltas with
// index, id, name and argument pieces), a chunk with `finish_reason`, then — with
// `stream_options.include_usage` — a usage chunk whose `choices` is empty, then `data: [DONE]`.
import { stopOf, toolFragments, usageOf, type WireTurn } from './model-turn.js';

const FINISH = { stop: 'stop', tool_use: 'tool_calls', length: 'length', refusal: 'content_filter' } as const;

let completions = 0;

export interface OpenAIWireOptions {
  /** Send reasoning as `reasoning` (OpenRouter, Ollama) instead of `reasoning_content` (DeepSeek, vLLM). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Leave out the usage chunk (servers that ignore include_usage). */
  noUsage?: boolean;
}

/** Every chunk of one streamed completion, in order (without the final `[DONE]`). */
export function openaiChunks(turn: WireTurn, opts: OpenAIWireOptions = {}): unknown[] {
  const id = `chatcmpl-test-${++completions}`;
  const base = {
    id,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: turn.model ?? 'gpt-4o',
    system_fingerprint: 'fp_test',
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
  });
  const out: unknown[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const r of turn.reasoning ?? []) out.push(chunk({ [opts.reasoningField ?? 'reasoning_content']: r }));
  for (const t of turn.text ?? []) out.push(chunk({ content: t }));
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    const callId = call.id ?? `call_test_${completions}_${index}`;
    out.push(chunk({ tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const f of toolFragments(call, turn.fragmentChars)) out.push(chunk({ tool_calls: [{ index, function: { arguments: f } }] }));
  }
  out.push(chunk({}, FINISH[stopOf(turn)]));
  if (!opts.noUsage) {
    const u = usageOf(turn);
    out.push({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: u.input + u.cacheRead,
        completion_tokens: u.output,
        total_tokens: u.input + u.cacheRead + u.output,
        prompt_tokens_details: { cached_tokens: u.cacheRead, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
      },
    });
  }
  return out;
}

export function dataLines(chunks: unknown[], done = true): string {
  let s = '';
  for (const c of chunks) s += `data: ${JSON.stringify(c)}\n\n`;
  return done ? `${s}data: [DONE]\n\n` : s;
}

export function openaiSse(turn: WireTurn, opts: OpenAIWireOptions = {}): string {
  return dataLines(openaiChunks(turn, opts));
}

/** The JSON body of a non-200 response (also what a mid-stream `data: {"error": …}` carries). */
export function openaiErrorBody(message: string, type: string, code: string | null = null): { error: unknown } {
  return { error: { message, type, param: null, code } };
}
