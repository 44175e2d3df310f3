// The "Keel" terminal: a pseudoterminal that shows, live, every command Keel runs and its
// output, so the user can watch. It only displays; the exact output is captured elsewhere.
import * as vscode from 'vscode';
import type { ProcessResult } from '../../kernel/contracts/index.js';

const MAX_BUFFER_CHARS = 200_000;

/** Terminals need \r\n; a lone \n would only move the cursor down. */
function toTerminalText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

export class KeelTerminal implements vscode.Disposable {
  private terminal: vscode.Terminal | undefined;
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private opened = false;
  /** Output written before the terminal opened (VS Code opens it asynchronously). */
  private pending = '';
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The last command and its output, as plain text (what `@terminal` attaches). */
  private last = '';

  constructor() {
    this.subscriptions.push(
      vscode.window.onDidCloseTerminal((t) => {
        if (t === this.terminal) {
          this.terminal = undefined;
          this.opened = false;
        }
      }),
    );
  }

  /** The terminal, created on first use and shown without taking focus. */
  show(): vscode.Terminal {
    if (!this.terminal) {
      const pty: vscode.Pseudoterminal = {
        onDidWrite: this.writeEmitter.event,
        open: () => {
          this.opened = true;
          if (this.pending) this.writeEmitter.fire(this.pending);
          this.pending = '';
        },
        close: () => {
          this.opened = false;
          this.terminal = undefined;
        },
      };
      this.terminal = vscode.window.createTerminal({ name: 'Keel', pty, iconPath: new vscode.ThemeIcon('terminal') });
    }
    this.terminal.show(true);
    return this.terminal;
  }

  begin(commandLine: string, cwd: string): void {
    this.show();
    const where = cwd && cwd !== '.' ? ` (in ${cwd})` : '';
    this.emit(`\x1b[1m$ ${commandLine}\x1b[0m\x1b[2m${where}\x1b[0m\r\n`);
    this.last = `$ ${commandLine}${where}\n`;
  }

  /** The last command Keel ran and the end of its output (empty before the first). */
  lastOutput(): string {
    return this.last;
  }

  write(chunk: string): void {
    this.emit(toTerminalText(chunk));
    this.last += chunk;
    if (this.last.length > MAX_BUFFER_CHARS) this.last = this.last.slice(-MAX_BUFFER_CHARS);
  }

  end(result: ProcessResult): void {
    const how = result.timedOut
      ? 'timed out'
      : result.cancelled
        ? 'stopped'
        : result.signal
          ? `killed by ${result.signal}`
          : `exit code ${result.exitCode}`;
    const color = result.exitCode === 0 ? '32' : '31';
    this.emit(`\r\n\x1b[${color}m[${how}, ${(result.durationMs / 1000).toFixed(1)} s]\x1b[0m\r\n\r\n`);
    this.last += `\n[${how}, ${(result.durationMs / 1000).toFixed(1)} s]\n`;
  }

  dispose(): void {
    this.terminal?.dispose();
    this.writeEmitter.dispose();
    for (const s of this.subscriptions) s.dispose();
  }

  private emit(text: string): void {
    if (this.opened) {
      this.writeEmitter.fire(text);
      return;
    }
    this.pending += text;
    if (this.pending.length > MAX_BUFFER_CHARS) this.pending = this.pending.slice(-MAX_BUFFER_CHARS);
  }
}
