// The context meter: how much of the model's window the conversation uses, what it cost, and
// an estimated split (characters / 4) into system · tools · conversation · tool results.
import type { ModelRequest, Usage } from '../../kernel/contracts/index.js';
import type { Meter, MeterSplit } from '../../protocol/index.js';

const tokens = (chars: number): number => Math.ceil(chars / 4);

/** Exact-enough split of a request the kernel is about to send. */
export function splitOfRequest(request: ModelRequest): MeterSplit {
  let conversation = 0;
  let toolResults = 0;
  for (const message of request.messages) {
    if (message.role === 'tool_result') toolResults += message.content.length;
    else if (message.role === 'user') conversation += message.text.length;
    else conversation += message.text.length + JSON.stringify(message.toolCalls).length;
  }
  const toolChars = request.tools.reduce((sum, t) => sum + t.name.length + t.description.length + JSON.stringify(t.inputSchema).length, 0);
  return {
    system: tokens(request.system.length),
    tools: tokens(toolChars),
    conversation: tokens(conversation),
    toolResults: tokens(toolResults),
  };
}

/** Running character counts, for when no request is at hand (a task loaded from its log). */
export interface CharTally {
  conversation: number;
  toolResults: number;
}

export function splitOfTally(tally: CharTally, fixed?: Pick<MeterSplit, 'system' | 'tools'>): MeterSplit {
  return {
    system: fixed?.system ?? 0,
    tools: fixed?.tools ?? 0,
    conversation: tokens(tally.conversation),
    toolResults: tokens(tally.toolResults),
  };
}

/** Context in use is what the last turn sent: fresh input plus what came from or went to cache. */
function contextTokens(usage: Usage | undefined): number | undefined {
  if (!usage) return undefined;
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

export function buildMeter(args: {
  lastTurnUsage: Usage | undefined;
  costUsd: number | undefined;
  windowTokens: number;
  split: MeterSplit;
}): Meter {
  const { split } = args;
  const estimated = split.system + split.tools + split.conversation + split.toolResults;
  return {
    usedTokens: contextTokens(args.lastTurnUsage) ?? estimated,
    windowTokens: args.windowTokens,
    ...(args.costUsd === undefined ? {} : { costUsd: args.costUsd }),
    split,
  };
}
