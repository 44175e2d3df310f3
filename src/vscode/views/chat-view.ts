// The Keel sidebar view (`keel.chat`): strict-CSP HTML, the bundle loaded by nonce, resources
// only from dist/ (what the build emits), and no retained context: when the view is hidden VS Code
// drops the page, and on return it says `webview/ready` and gets a host snapshot.
import * as vscode from 'vscode';
import type { HostMessage } from '../../protocol/index.js';
import { makeNonce, renderWebviewHtml } from '../../host/presenter/index.js';

export const CHAT_VIEW_ID = 'keel.chat';

export interface ChatViewEvents {
  /** A raw message from the page; validated by the receiver. */
  onMessage(raw: unknown): void;
}

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private view: vscode.WebviewView | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Cards waiting for an answer: the view's badge (kept until the view exists). */
  private badgeCount = 0;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly events: ChatViewEvents,
  ) {}

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    // The page loads only built files: the bundle, its style sheet and the icon font.
    const roots = [vscode.Uri.joinPath(this.extensionUri, 'dist')];
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: roots };
    view.webview.html = this.html(view.webview);
    this.setBadge(this.badgeCount);
    this.subscriptions.push(
      view.webview.onDidReceiveMessage((raw) => this.events.onMessage(raw)),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
      }),
    );
  }

  /** The Keel view's badge: how many cards wait for an answer (0: none). */
  setBadge(count: number): void {
    this.badgeCount = count;
    if (!this.view) return;
    this.view.badge = count > 0 ? { value: count, tooltip: `${count} waiting for your approval` } : undefined;
  }

  /** Posts to the page if it is there; a lost message is healed by the next snapshot. */
  post(message: HostMessage): void {
    const view = this.view;
    if (!view) return;
    view.webview.postMessage(message).then(undefined, () => undefined);
  }

  /** Reveals the view (the command palette entry points use this), leaving the keyboard where it is. */
  async reveal(): Promise<void> {
    if (this.view) {
      this.view.show(true);
      return;
    }
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  }

  /**
   * Shows the view with the keyboard in its composer: after New Task, after an `@` pick (the
   * quick pick would otherwise hand the keyboard back to the editor, and the next words typed
   * would go into the source file).
   */
  async focusComposer(): Promise<void> {
    if (this.view) this.view.show(false);
    else await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    this.post({ type: 'composer/focus' });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }

  private html(webview: vscode.Webview): string {
    const asUri = (...parts: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...parts)).toString();
    return renderWebviewHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: asUri('dist', 'webview.js'),
      styleUris: [asUri('dist', 'codicons', 'codicon.css'), asUri('dist', 'webview.css')],
      title: 'Keel',
    });
  }
}
