// What a user message logs when its run starts: the mode and the custom agent it was sent in
// (when they change), the UserPromptSubmit hooks' verdict, the message itself and run_started.
// A message a hook blocked logs no message and starts no run.
import type { ConversationState } from './contracts/state.js';
import type { RuntimeEventInput } from './contracts/events.js';
import type { ImagePart } from './contracts/model.js';
import type { Attachment } from './contracts/attachments.js';
import type { AgentMode } from './contracts/todos.js';
import type { AgentProfile } from './contracts/agents.js';
import { sameAgent } from './modes.js';
import { runStartedFields, type AgentModels } from './agent-model.js';
import type { TaskHooks } from './hooks.js';

export interface MessageToLog {
  text: string;
  images?: ImagePart[] | undefined;
  attachments?: Attachment[] | undefined;
  mode?: AgentMode | undefined;
  /** null: back to no agent; undefined: the task's agent stays. */
  agent?: AgentProfile | null | undefined;
}

export interface MessageLogEnv {
  state(): ConversationState;
  emit(e: RuntimeEventInput): void;
  hooks: TaskHooks | undefined;
  models: AgentModels;
}

/** True when the message was logged and its run started; false when a hook blocked it. */
export async function logMessage(env: MessageLogEnv, m: MessageToLog, signal: AbortSignal): Promise<boolean> {
  const { state, emit } = env;
  if (m.mode !== undefined && m.mode !== state().mode) emit({ type: 'mode_set', mode: m.mode });
  if (m.agent !== undefined && !sameAgent(m.agent ?? undefined, state().agent))
    emit({ type: 'agent_set', ...(m.agent ? { agent: m.agent } : {}) });
  const first = !state().messages.some((msg) => msg.type === 'user');
  const hooked = env.hooks ? await env.hooks.onPrompt({ signal, emit }, m.text, first) : undefined;
  // A blocked message is not sent: the hook_ran events say why, and nothing runs.
  if (hooked?.type === 'block') return false;
  emit({
    type: 'user_message',
    text: m.text,
    ...(m.images?.length ? { images: m.images } : {}),
    ...(m.attachments ? { attachments: m.attachments } : {}),
    ...(hooked?.context ? { hookContext: hooked.context } : {}),
  });
  emit({ type: 'run_started', ...runStartedFields(env.models.for(state().agent)) });
  return true;
}
