// The answer of a symbol tool where the host has no code intelligence (it is then not offered;
// this covers a replayed or hand-written call).
import type { ToolResult } from '../../kernel/index.js';
import { failure } from '../tool-result.js';

export function noCodeIntel(): ToolResult {
  return failure('execution_failed', 'Code intelligence is not available here. Use search_files and read_file instead.', {
    retryable: false,
  });
}
