// The scripted provider's demo (`keel run --provider scripted`): a scripted demo of one task —
// list the workspace's files and say how many lines came back — that calls no model and needs no
// key. It says so first, and it follows the mode or agent it is given: when the request does not
// offer list_files it says it cannot do its one task rather than call a tool it was not given.
import type { ModelEvent, ModelRequest } from '../kernel/index.js';

const LIST_TOOL = 'list_files';

const INTRO = 'This is the scripted demo: it plays one task (listing the workspace) and calls no model. ';
const WITH_A_MODEL =
  'With a real model (set ANTHROPIC_API_KEY, or --provider openai with --base-url) Keel would now read, edit and test.\n';

export function demoScript(request: ModelRequest, turn: number): ModelEvent[] {
  if (turn === 0) {
    if (!request.tools.some((t) => t.name === LIST_TOOL))
      return say(INTRO, `The mode or agent this task runs in does not offer ${LIST_TOOL}, so the demo cannot do its one task here.\n`);
    return [
      { type: 'text_delta', text: INTRO },
      { type: 'text_delta', text: 'First I will list the files in the workspace.\n' },
      { type: 'tool_intent', providerRef: 'demo_1', tool: LIST_TOOL, input: {} },
      { type: 'final', stopReason: 'tool_intent' },
    ];
  }
  const last = request.messages[request.messages.length - 1];
  const result = last?.role === 'tool_result' ? last : undefined;
  // Only what the last result says: a listing that did not come back is not described as one.
  if (!result || result.isError) return say('\nThe listing did not come back, so there is nothing to report. ', WITH_A_MODEL);
  const count = result.content.split('\n').filter((l) => l.trim() && !l.startsWith('[')).length;
  return say(`\nThe workspace listing came back with ${count} lines. `, WITH_A_MODEL);
}

function say(...texts: string[]): ModelEvent[] {
  return [...texts.map((text): ModelEvent => ({ type: 'text_delta', text })), { type: 'final', stopReason: 'stop' }];
}
