// Context the user attaches in the composer: chips for `@` attachments (their content stays in
// the host until the message is sent), pasted or dropped images (base64, checked again by the
// host), and the header's model and auto-approve pickers' messages.
import * as z from 'zod/mini';

const ATTACHMENT_KIND_VALUES = ['file', 'folder', 'problems', 'selection', 'changes', 'terminal'] as const;

/** What the composer and the message show for one `@` attachment. */
export const AttachmentChipSchema = z.object({
  /** The host's id of the pending attachment (composer only; a sent message has none). */
  id: z.optional(z.string().check(z.maxLength(64))),
  kind: z.enum(ATTACHMENT_KIND_VALUES),
  label: z.string().check(z.maxLength(300)),
  /** Characters cut to keep within the budget (shown on the chip). */
  cutChars: z.optional(z.number()),
});
export type AttachmentChip = z.infer<typeof AttachmentChipSchema>;

const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

/** Anthropic's per-image limit, the tighter of the two providers. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Longer edge above which an image is downscaled before sending (costs tokens, adds nothing). */
export const MAX_IMAGE_EDGE_PX = 1568;
export const MAX_IMAGES_PER_MESSAGE = 8;

export const ImageInputSchema = z.object({
  mediaType: z.enum(IMAGE_MEDIA_TYPES),
  /** base64 without a data: prefix. */
  data: z.string().check(z.maxLength(Math.ceil(MAX_IMAGE_BYTES / 3) * 4), z.regex(/^[A-Za-z0-9+/]*={0,2}$/)),
});
export type ImageInput = z.infer<typeof ImageInputSchema>;

/** The kind of image the bytes are, by their magic numbers; undefined when none of the four. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return undefined;
}

/** The longest key of an `@` mention (a workspace path with its kind). */
export const MAX_MENTION_KEY = 1100;

/** What the `@` menu offers: the host's key for it, its label (put in the text), and a hint. */
export const MentionItemSchema = z.object({
  key: z.string().check(z.maxLength(MAX_MENTION_KEY)),
  label: z.string().check(z.maxLength(MAX_MENTION_KEY)),
  description: z.optional(z.string().check(z.maxLength(300))),
  kind: z.enum(ATTACHMENT_KIND_VALUES),
});
export type MentionItem = z.infer<typeof MentionItemSchema>;
