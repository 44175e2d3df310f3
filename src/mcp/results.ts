// Step 4 of the MCP client: a server's answer as a kernel ToolResult. Text goes to the model as
// text; an image goes as an image part (the provider sends it where the model accepts images,
// else a note); audio and binary resources become a note. All of it is untrusted data; the
// kernel holds the text to the tool's output budget like any other observation.
import type { ImagePart, ObservationErrorCode, ToolResult } from '../kernel/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from './connection.js';

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** An image larger than this (base64 characters) is left out with a note. */
const MAX_IMAGE_CHARS = 1_500_000;
/** At most this many images from one call. */
const MAX_IMAGES = 4;

export function callResult(server: string, tool: string, result: CallToolResult): ToolResult {
  const parts: string[] = [];
  const images: ImagePart[] = [];
  for (const item of result.content ?? []) {
    if (item.type === 'text') parts.push(item.text);
    else if (item.type === 'image') {
      if (!IMAGE_TYPES.has(item.mimeType)) parts.push(`[an image of type ${item.mimeType} left out: not a type models accept]`);
      else if (item.data.length > MAX_IMAGE_CHARS || images.length >= MAX_IMAGES)
        parts.push(`[an image (${item.mimeType}, ${item.data.length} base64 characters) left out: over the size or count cap]`);
      else {
        images.push({ mediaType: item.mimeType as ImagePart['mediaType'], data: item.data });
        parts.push(`[image ${images.length}: ${item.mimeType}]`);
      }
    } else if (item.type === 'audio') parts.push(`[audio (${item.mimeType}) left out: not passed to the model]`);
    else if (item.type === 'resource_link') parts.push(`[resource link: ${item.uri}${item.name ? ` (${item.name})` : ''}]`);
    else if (item.type === 'resource') {
      const r = item.resource;
      parts.push('text' in r ? `[resource ${r.uri}]\n${r.text}` : `[resource ${r.uri}: binary (${r.mimeType ?? 'unknown type'}) left out]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  const content = parts.join('\n') || '(the tool returned no content)';
  const summary = `${server}/${tool}${result.isError ? ': error' : ''}`;
  const withImages = images.length > 0 ? { images } : {};
  if (result.isError) return { ok: false, code: 'execution_failed', retryable: true, content, summary, ...withImages };
  return { ok: true, content, summary, ...withImages };
}

/** A failed call (timeout, crash, malformed answer, cancel) as a coded error the model can act on. */
export function callFailure(server: string, err: unknown, signal: AbortSignal): ToolResult {
  const code = failureCode(err, signal);
  const text =
    code === 'timeout'
      ? `The MCP server "${server}" did not answer in time; the call was abandoned.`
      : code === 'cancelled'
        ? 'The call was cancelled.'
        : `The MCP server "${server}" failed: ${messageOf(err)}`;
  return { ok: false, code, retryable: code !== 'cancelled', content: text, summary: `${server}: ${code}` };
}

function failureCode(err: unknown, signal: AbortSignal): ObservationErrorCode {
  if (signal.aborted) return 'cancelled';
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return 'timeout';
  return 'execution_failed';
}
