// The shapes a chat-completions `content` takes beyond a string: an array of parts, as Mistral's
// reasoning models stream it (text parts, and thinking parts whose `thinking` is itself a list of
// text parts). Read into plain text and reasoning pieces; anything else in it is left out, never
// passed on as text (`[object Object]`).

/** The delta fields OpenAI-compatible servers stream reasoning in, in the order they are read. */
export const REASONING_FIELDS = ['reasoning_content', 'reasoning'] as const;
export type ReasoningField = (typeof REASONING_FIELDS)[number];

export type ContentPiece = { kind: 'text' | 'reasoning'; text: string };

type Part = { type?: unknown; text?: unknown; thinking?: unknown };

/** The text and reasoning in a `content` that is not a string (nothing for null or a stray value). */
export function contentParts(content: unknown): ContentPiece[] {
  if (!Array.isArray(content)) return [];
  const out: ContentPiece[] = [];
  for (const part of content as Part[]) {
    if (!part || typeof part !== 'object') continue;
    if ((part.type === 'text' || part.type === 'output_text') && typeof part.text === 'string' && part.text) {
      out.push({ kind: 'text', text: part.text });
    } else if (part.type === 'thinking') {
      const text = thinkingText(part.thinking);
      if (text) out.push({ kind: 'reasoning', text });
    }
  }
  return out;
}

/** A thinking part's text: a string, or a list of text parts. */
function thinkingText(thinking: unknown): string {
  if (typeof thinking === 'string') return thinking;
  if (!Array.isArray(thinking)) return '';
  let text = '';
  for (const t of thinking as Part[]) if (t && typeof t === 'object' && typeof t.text === 'string') text += t.text;
  return text;
}
