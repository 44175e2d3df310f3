// Step 2 of the A2A client: one task sent to a remote agent through the official SDK, its
// stream read to the end. Every status, message and artifact is reported as it arrives (the
// caller logs them); the answer is the agent's last message. Requests go only to the origin the
// user configured — a card naming another host is refused, so the configured headers (a token)
// never travel elsewhere.
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type AgentCard, type Message, type Part } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import type { RemoteUpdate } from '../kernel/index.js';
import type { A2aAgentConfig } from './config.js';

/** An artifact or message text kept in the log at most this long (the model's copy is capped by the tool's budget). */
const LOGGED_CHARS = 16_000;

interface RemoteArtifact {
  name: string;
  mediaType: string;
  text: string;
}

export interface RemoteAnswer {
  /** The task's last state, as A2A names it (completed, failed, canceled, …). */
  state: string;
  answer: string;
  artifacts: RemoteArtifact[];
}

export async function askRemoteAgent(
  agent: A2aAgentConfig,
  task: string,
  signal: AbortSignal,
  report: (update: RemoteUpdate) => void,
): Promise<RemoteAnswer> {
  const origin = new URL(agent.definition.url).origin;
  const fetchImpl = sameOriginFetch(origin, agent.definition.headers);
  const card = await new DefaultAgentCardResolver({ fetchImpl }).resolve(agent.definition.url);
  refuseOtherHosts(card, origin);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    }),
  );
  const client = await factory.createFromAgentCard(card);
  const out: RemoteAnswer = { state: 'unknown', answer: '', artifacts: [] };
  const say = (update: Omit<RemoteUpdate, 'agent'>) => report({ agent: agent.name, ...update, text: update.text.slice(0, LOGGED_CHARS) });
  const stream = client.sendMessageStream(
    { tenant: '', message: userMessage(task), configuration: undefined, metadata: undefined },
    { signal },
  );
  for await (const event of stream) {
    const p = event.payload;
    if (!p) continue;
    if (p.$case === 'task') out.state = stateName(p.value.status?.state);
    if (p.$case === 'message') {
      out.answer = textOf(p.value.parts);
      say({ kind: 'message', text: out.answer });
    }
    if (p.$case === 'statusUpdate') {
      out.state = stateName(p.value.status?.state);
      const text = textOf(p.value.status?.message?.parts ?? []);
      if (text) out.answer = text;
      say({ kind: 'status', state: out.state, text });
    }
    if (p.$case === 'artifactUpdate' && p.value.artifact) {
      const a = p.value.artifact;
      const artifact = { name: a.name || a.artifactId, mediaType: a.parts[0]?.mediaType || 'text/plain', text: textOf(a.parts) };
      out.artifacts.push(artifact);
      say({ kind: 'artifact', name: artifact.name, mediaType: artifact.mediaType, text: artifact.text });
    }
  }
  return out;
}

function userMessage(task: string): Message {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [textPart(task)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

export function textPart(text: string, mediaType = 'text/plain'): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType };
}

/** A part's text: text as it is, data as JSON; files and raw bytes by name only. */
function textOf(parts: readonly Part[]): string {
  return parts
    .map((part) => {
      const c = part.content;
      if (!c) return '';
      if (c.$case === 'text') return c.value;
      if (c.$case === 'data') return JSON.stringify(c.value, null, 2);
      return `[${c.$case === 'url' ? c.value : `${part.filename || 'file'} (${part.mediaType || 'bytes'})`}]`;
    })
    .filter(Boolean)
    .join('\n');
}

function stateName(state: TaskState | undefined): string {
  const name = state === undefined ? 'unknown' : TaskState[state];
  return (name ?? 'unknown').replace(/^TASK_STATE_/, '').toLowerCase();
}

function refuseOtherHosts(card: AgentCard, origin: string): void {
  for (const i of card.supportedInterfaces) {
    if (new URL(i.url, origin).origin !== origin)
      throw new Error(`The agent card names another host (${i.url}); Keel talks only to ${origin}, the URL you configured.`);
  }
}

/** fetch with the configured headers, for the configured origin only. */
function sameOriginFetch(origin: string, headers: Readonly<Record<string, string>>): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== origin) return Promise.reject(new Error(`Refused a request to ${url.origin}: this agent is at ${origin}.`));
    const merged = new Headers(input instanceof Request ? input.headers : undefined);
    for (const [k, v] of new Headers(init?.headers).entries()) merged.set(k, v);
    for (const [k, v] of Object.entries(headers)) merged.set(k, v);
    return fetch(input, { ...init, headers: merged });
  };
}
