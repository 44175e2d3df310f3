// A user message's content as the OpenAI APIs take it (chat completions and Responses alike):
// attachments, images, then the user's words. Without an image to send it stays one string, since
// many OpenAI-compatible servers for text-only models accept nothing else; each API names its own
// text and image parts.
import type { ImagePart, ModelMessage } from '../kernel/contracts/index.js';
import { imagesLeftOut, renderAttachment } from '../kernel/attachments.js';

export interface ContentParts<P> {
  text(text: string): P;
  image(image: ImagePart): P;
}

export function userContent<P>(m: Extract<ModelMessage, { role: 'user' }>, vision: boolean, part: ContentParts<P>): string | P[] {
  const images = m.images ?? [];
  const texts = (m.attachments ?? []).map(renderAttachment);
  if (!vision || images.length === 0) {
    if (images.length) texts.push(imagesLeftOut(images.length));
    if (m.text !== '' || texts.length === 0) texts.push(m.text);
    return texts.join('\n\n');
  }
  const parts = texts.map((text) => part.text(text));
  for (const image of images) parts.push(part.image(image));
  if (m.text !== '') parts.push(part.text(m.text));
  return parts;
}
