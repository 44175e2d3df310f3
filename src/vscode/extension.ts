// The composition root of the extension: `activate` builds the window in dependency order, each
// step taking the typed records of the steps before it (src/vscode/build/): what everything reads
// (base), what the folder brings (folder), the runtime factory, task store and locks (tasks),
// then the view, diff approvals and session (session), and hands it all to VS Code (register).
// What is built before the session and calls it goes through the session's links. Closing the
// window disposes context.subscriptions, the task store's logs first. In a test build `activate`
// returns a small API that the integration tests drive; in production it returns nothing.
import type * as vscode from 'vscode';
import type { KeelApi } from './test-api.js';
import { buildBase } from './build/base.js';
import { buildFolder } from './build/folder.js';
import { buildTasks } from './build/tasks.js';
import { buildSession } from './build/session.js';
import { sessionLinks } from './build/session-links.js';
import { keelApi, registerAll, startWindow } from './build/register.js';

export type { KeelApi } from './test-api.js';

/**
 * esbuild.mjs's define: true in a `--test-api` build. Read here, in the file that returns the
 * API, as a bare literal once bundled, so the production bundle leaves the API's code out.
 */
declare const KEEL_TEST_API: boolean;

export async function activate(context: vscode.ExtensionContext): Promise<KeelApi | undefined> {
  const links = sessionLinks();
  const base = buildBase(context);
  const parts = await buildFolder(context, base);
  const core = await buildTasks(context, base, parts, links);
  const ui = buildSession(context, base, parts, core, links);
  const built = { base, parts, core, ui };
  registerAll(context, built);
  startWindow(context, built);
  return KEEL_TEST_API ? keelApi(built) : undefined;
}
