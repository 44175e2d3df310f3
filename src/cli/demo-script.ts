// The scripted provider's demo: looks around the workspace and reports, with no API key.
import type { ModelEvent, ModelRequest } from '../kernel/index.js';
import type { Script } from '../providers/scripted.js';

export const demoScript: Script = (request: ModelRequest, turn: number): ModelEvent[] => {
  if (turn === 0) {
    return [
      { type: 'text_delta', text: 'This is the scripted demo (no model is called). ' },
      { type: 'text_delta', text: 'First I will list the files in the workspace.\n' },
      { type: 'tool_intent', providerRef: 'demo_1', tool: 'list_files', input: {} },
      { type: 'final', stopReason: 'tool_intent' },
    ];
  }
  const last = request.messages[request.messages.length - 1];
  const listing = last?.role === 'tool_result' ? last.content : '';
  const count = listing.split('\n').filter((l) => l.trim() && !l.startsWith('[')).length;
  return [
    { type: 'text_delta', text: `\nThe workspace listing came back with ${count} lines. ` },
    {
      type: 'text_delta',
      text: 'With a real model (set ANTHROPIC_API_KEY, or --provider openai with --base-url) Keel would now read, edit and test.\n',
    },
    { type: 'final', stopReason: 'stop' },
  ];
};
