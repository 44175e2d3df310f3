// A Session whose tasks are composed as the extension composes them (composeRuntime over a real
// workspace folder, trusted, read auto-approved), each answered by a ScriptedProvider: for host
// tests of what a message sent from the view becomes (a custom agent, a /command).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ComposeInput, composeRuntime } from '../../src/compose/runtime.js';
import type { SessionDeps } from '../../src/host/session/session-deps.js';
import { Session } from '../../src/host/session/session.js';
import { TaskStore } from '../../src/host/tasks/task-store.js';
import type { Workspace } from '../../src/kernel/index.js';
import { createNodeWorkspace } from '../../src/node/node-workspace.js';
import { ScriptedProvider, textTurn } from '../../src/providers/scripted.js';
import { scratchDir } from './scratch.js';
import { standInSessionDeps, taskLogsOnDisk } from './stand-in-session.js';

export interface ComposedSessionSetup {
  /** Names the scratch folder. */
  name: string;
  /** Files written into the workspace before it opens, by relative path. */
  files: Record<string, string>;
  /** What every model turn answers. */
  reply: string;
  /** What each task reads besides the workspace, and what the session lists before any task. */
  folders(base: string, ws: Workspace): { compose: Pick<ComposeInput, 'agents' | 'commands'>; deps: Partial<SessionDeps> };
}

export async function composedSessionWorld(setup: ComposedSessionSetup) {
  const base = scratchDir(setup.name);
  const root = path.join(base, 'ws');
  for (const [file, text] of Object.entries(setup.files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const ws = await createNodeWorkspace(root);
  const folders = setup.folders(base, ws);
  const providers: ScriptedProvider[] = [];
  const refused: string[] = [];
  const posted: unknown[] = [];
  const tasks = new TaskStore({
    dir: path.join(base, 'tasks'),
    logs: taskLogsOnDisk,
    createRuntime: ({ events, store }) => {
      const provider = new ScriptedProvider(() => textTurn(setup.reply));
      providers.push(provider);
      return composeRuntime({
        provider,
        settings: { maxTurns: 4, autoApprove: ['read'], commandsAllow: [], commandsDeny: [] },
        workspace: ws,
        trusted: () => true,
        interactive: true,
        store,
        events,
        ...folders.compose,
      });
    },
    onStatus: (t, s) => session.statusChanged(t, s),
  });
  const session: Session = new Session(
    standInSessionDeps({ tasks, post: (m) => posted.push(m), refuse: (m) => refused.push(m), ...folders.deps }),
  );
  await tasks.init();
  return { session, tasks, providers, refused, posted, root };
}

/** Resolves once the session's task is no longer running (or after about a second). */
export async function sessionIdle(session: Session): Promise<void> {
  for (let i = 0; i < 200 && session.current?.busy; i++) await new Promise((r) => setTimeout(r, 5));
}
