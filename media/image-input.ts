// A pasted or dropped file → an image Keel can send: the bytes must be PNG, JPEG, GIF or WebP
// by their magic numbers (not the name or the claimed type), larger ones are downscaled in the
// webview (canvas) so the provider's limits hold, and anything still too big is refused with a
// reason. The decoder is passed in: the real one uses createImageBitmap and OffscreenCanvas.
import { type ImageInput, type ImageMediaType, MAX_IMAGE_BYTES, MAX_IMAGE_EDGE_PX, sniffImageType } from '../src/protocol/index.js';

interface Shrunk {
  mediaType: ImageMediaType;
  bytes: Uint8Array;
}

/** Downscales to fit `maxEdge` px; undefined when the image already fits (or cannot be decoded). */
export type Shrink = (bytes: Uint8Array, type: ImageMediaType, maxEdge: number) => Promise<Shrunk | undefined>;

export type ImageResult = { ok: true; image: ImageInput } | { ok: false; reason: string };

export async function toImageInput(bytes: Uint8Array, shrink: Shrink): Promise<ImageResult> {
  const type = sniffImageType(bytes);
  if (!type) return { ok: false, reason: 'Not a PNG, JPEG, GIF or WebP image: left out.' };
  let out: Shrunk = { mediaType: type, bytes };
  try {
    out = (await shrink(bytes, type, MAX_IMAGE_EDGE_PX)) ?? out;
  } catch {
    // Undecodable: sent as it is if it is small enough; the provider will say if it is broken.
  }
  if (out.bytes.length > MAX_IMAGE_BYTES) {
    return {
      ok: false,
      reason: `Image too large (${mib(out.bytes.length)} MiB after downscaling; the limit is ${mib(MAX_IMAGE_BYTES)} MiB): left out.`,
    };
  }
  return { ok: true, image: { mediaType: out.mediaType, data: toBase64(out.bytes) } };
}

/** The browser's decoder: scales the longer edge to `maxEdge`, re-encoding PNG/GIF as PNG, others as JPEG. */
export const canvasShrink: Shrink = async (bytes, type, maxEdge) => {
  const bitmap = await createImageBitmap(new Blob([bytes as BlobPart], { type }));
  const edge = Math.max(bitmap.width, bitmap.height);
  if (edge <= maxEdge && bytes.length <= MAX_IMAGE_BYTES) return undefined;
  const scale = Math.min(1, maxEdge / edge);
  const canvas = new OffscreenCanvas(Math.max(1, Math.round(bitmap.width * scale)), Math.max(1, Math.round(bitmap.height * scale)));
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const mediaType: ImageMediaType = type === 'image/png' || type === 'image/gif' ? 'image/png' : 'image/jpeg';
  const blob = await canvas.convertToBlob({ type: mediaType, quality: 0.85 });
  return { mediaType, bytes: new Uint8Array(await blob.arrayBuffer()) };
};

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

function mib(n: number): string {
  return (n / (1024 * 1024)).toFixed(1);
}
