// The first build step: what everything else reads — the log channel, the keys, redaction, the
// settings and their guard, the folder, the Keel terminal and the proposed-content provider.
import * as vscode from 'vscode';
import { readSettings, type KeelSettings } from '../../host/settings/settings.js';
import { redactSecrets } from '../../kernel/redact.js';
import { secretDetector } from '../../compose/index.js';
import { wipeCredentialsFromBlock } from '../../node/environment-block.js';
import { SecretKeys } from '../keys/secret-keys.js';
import { redactingLog, type KeelLog } from '../keel-log.js';
import { WorkspaceSettingsGuard } from '../settings-guard.js';
import { KeelTerminal } from '../workspace/keel-terminal.js';
import { ProposedContentProvider } from '../edits/proposed-content.js';

export interface Base {
  channel: vscode.LogOutputChannel;
  keys: SecretKeys;
  redact(text: string): string;
  log: KeelLog;
  settings(): KeelSettings;
  guard: WorkspaceSettingsGuard;
  folder: vscode.WorkspaceFolder | undefined;
  terminal: KeelTerminal;
  content: ProposedContentProvider;
}

export function buildBase(context: vscode.ExtensionContext): Base {
  const channel = vscode.window.createOutputChannel('Keel', { log: true });
  const keys = new SecretKeys(context.secrets);
  const log = redactingLog(channel, () => keys.known());
  wipeHostCredentials(log);
  return {
    channel,
    keys,
    redact: (text) => redactSecrets(text, keys.known(), secretDetector()),
    log,
    settings: readKeelSettings,
    guard: new WorkspaceSettingsGuard({
      warn: (message) =>
        void vscode.window.showWarningMessage(message, 'Open User Settings').then((pick) => {
          if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'keel.');
        }),
      log: (message) => log.warn(message),
    }),
    folder: vscode.workspace.workspaceFolders?.[0],
    terminal: new KeelTerminal(),
    content: new ProposedContentProvider(),
  };
}

/**
 * A key the editor inherited from a shell that exported it sits in the extension host's
 * environment block, which every command Keel runs from here could read (/proc/$PPID/environ):
 * it is wiped there, process.env keeps it (other extensions read it as before).
 */
function wipeHostCredentials(log: KeelLog): void {
  const detector = secretDetector();
  const outcome = wipeCredentialsFromBlock((name, value) => detector.inVariable(name, value) !== undefined);
  if (outcome.problem && process.platform === 'linux')
    log.warn(`could not wipe the credentials from the extension host's environment block (${outcome.problem})`);
}

// inspect(), not get(): the user-only settings are taken from the user's level whatever the editor lets through.
function readKeelSettings(): KeelSettings {
  const config = vscode.workspace.getConfiguration('keel');
  return readSettings((k) => ({ ...config.inspect(k), value: config.get(k) }));
}
