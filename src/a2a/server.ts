// Keel as an A2A agent: the SDK's request handler and JSON-RPC/REST transports on express, an
// agent card, and an executor that turns each incoming message into one headless task through
// `run` (the host decides how: src/cli runs it as a fleet job). Its status streams as it works,
// its result and patch come back as artifacts, and a cancel stops it. Binds 127.0.0.1 unless
// told otherwise. Every request must be addressed to this server (Host, Origin) and, but for the
// agent card, carry one of its bearer tokens; each token is a caller who sees only its own tasks
// (caller-guard.ts).
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { A2A_PROTOCOL_VERSION, AGENT_CARD_PATH, Role, TaskState, type AgentCard, type Artifact, type Message } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultRequestHandler,
  InMemoryTaskStore,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler } from '@a2a-js/sdk/server/express';
import { callerGuard } from './caller-guard.js';
import { versionGate } from './version-gate.js';
import { textPart } from './client.js';

interface ServedArtifact {
  name: string;
  mediaType: string;
  /** Text, or JSON data (sent as a data part). */
  text?: string;
  data?: unknown;
}

export interface ServedOutcome {
  state: 'completed' | 'failed' | 'canceled';
  answer: string;
  artifacts: ServedArtifact[];
}

interface ServedTask {
  text: string;
  signal: AbortSignal;
  /** A line of progress, streamed as a `working` status message. */
  progress(text: string): void;
}

export interface A2aServerOptions {
  host: string;
  port: number;
  name: string;
  description: string;
  /** Every request but the agent card's must send `Authorization: Bearer <one of them>`; each is a caller of its own. */
  tokens: readonly string[];
  run(task: ServedTask): Promise<ServedOutcome>;
}

export interface A2aServer {
  url: string;
  close(): Promise<void>;
}

export async function startA2aServer(o: A2aServerOptions): Promise<A2aServer> {
  if (o.tokens.length === 0) throw new Error('An A2A server needs at least one bearer token.');
  const guard = callerGuard({ host: o.host, tokens: o.tokens });
  const app = express();
  app.use(guard.sameHost);
  let url = '';
  const card = (): AgentCard => agentCard(o, url);
  // The store keeps each caller's tasks apart (scoped by the user the guard names).
  const handler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), new KeelExecutor(o.run));
  const cardProvider = async () => card();
  // The card says how to authenticate, so it is served to any request addressed to this server.
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: cardProvider }));
  app.use(guard.bearer);
  app.use('/rest', versionGate('rest'), restHandler({ requestHandler: handler, userBuilder: guard.user }));
  app.use('/', versionGate('jsonrpc'), jsonRpcHandler({ requestHandler: handler, userBuilder: guard.user }));
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(o.port, o.host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const address = server.address() as AddressInfo;
  url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`;
  // The handler keeps the card it was given: give it the one with the real URL.
  Object.assign(await handler.getAgentCard(), card());
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function agentCard(o: A2aServerOptions, url: string): AgentCard {
  return {
    name: o.name,
    description: o.description,
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
      { url: `${url}rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
    ],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      bearer: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: { description: 'A token the server was started with', scheme: 'Bearer', bearerFormat: '' },
        },
      },
    },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json', 'text/x-diff'],
    skills: [
      {
        id: 'coding-task',
        name: 'Coding task',
        description: 'Runs one task on the served project with a fixed, headless policy; returns its answer, result and patch.',
        tags: ['coding'],
        examples: ['Explain what src/ does', 'Fix the failing test in test/price.test.js'],
        inputModes: ['text/plain'],
        outputModes: ['text/plain', 'application/json', 'text/x-diff'],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

class KeelExecutor implements AgentExecutor {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly run: A2aServerOptions['run']) {}

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = context;
    const controller = new AbortController();
    this.running.set(taskId, controller);
    const status = (state: TaskState, text?: string) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            message: text === undefined ? undefined : agentMessage(taskId, contextId, text),
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
    try {
      const task = context.task ?? {
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [context.userMessage],
        metadata: undefined,
      };
      bus.publish(AgentEvent.task(task));
      status(TaskState.TASK_STATE_WORKING, 'Keel started the task.');
      const text = context.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('\n');
      const outcome = await this.run({ text, signal: controller.signal, progress: (line) => status(TaskState.TASK_STATE_WORKING, line) });
      for (const a of outcome.artifacts)
        bus.publish(
          AgentEvent.artifactUpdate({ taskId, contextId, artifact: artifact(a), append: false, lastChunk: true, metadata: undefined }),
        );
      status(FINAL[outcome.state], outcome.answer);
    } finally {
      this.running.delete(taskId);
      bus.finished();
    }
  };

  cancelTask = async (taskId: string): Promise<void> => {
    this.running.get(taskId)?.abort();
  };
}

const FINAL: Record<ServedOutcome['state'], TaskState> = {
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  canceled: TaskState.TASK_STATE_CANCELED,
};

function agentMessage(taskId: string, contextId: string, text: string): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function artifact(a: ServedArtifact): Artifact {
  const part =
    a.data === undefined
      ? textPart(a.text ?? '', a.mediaType)
      : { content: { $case: 'data' as const, value: a.data }, metadata: undefined, filename: '', mediaType: a.mediaType };
  return { artifactId: randomUUID(), name: a.name, description: '', parts: [part], metadata: undefined, extensions: [] };
}
