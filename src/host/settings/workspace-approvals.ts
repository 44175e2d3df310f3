// What a workspace's own files ask Keel to use — an MCP server to start (.vscode/mcp.json), a
// remote A2A agent to send briefs to (.keel/a2a.json) — is used only in a trusted workspace and
// only once the user approved that exact definition in a modal. The approval is remembered per
// workspace as the hash of the definition, so a changed definition asks again. One gate for
// both; the modal itself is the caller's port. No vscode import (unit-tested without an editor).
import { createHash } from 'node:crypto';

/** Where the approved hashes are kept (VS Code's workspaceState has this shape). */
export interface ApprovalMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface ApprovalUi {
  /** A modal question; true only when the user picked `accept`. */
  confirm(message: string, detail: string, accept: string): PromiseLike<boolean>;
  warn(message: string): void;
}

export interface ApprovalQuestion {
  message: string;
  /** Shows the exact definition (the command line, the agent's URL). */
  detail: string;
  accept: string;
  /** Said instead of asking in an untrusted workspace. */
  untrusted: string;
}

export class WorkspaceApprovals {
  constructor(
    private readonly memento: ApprovalMemento,
    private readonly stateKey: string,
    private readonly trusted: () => boolean,
    private readonly ui: ApprovalUi,
  ) {}

  /** Whether this exact definition may be used now: a trusted workspace and a remembered approval. */
  allows(definitionKey: string): boolean {
    return this.trusted() && this.approved().includes(approvalHash(definitionKey));
  }

  /** Asks in a modal (never in an untrusted workspace); remembers a yes. */
  async ask(definitionKey: string, question: ApprovalQuestion): Promise<boolean> {
    if (!this.trusted()) {
      this.ui.warn(question.untrusted);
      return false;
    }
    if (this.allows(definitionKey)) return true;
    if (!(await this.ui.confirm(question.message, question.detail, question.accept))) return false;
    await this.memento.update(this.stateKey, [...this.approved(), approvalHash(definitionKey)]);
    return true;
  }

  private approved(): string[] {
    const list = this.memento.get<unknown>(this.stateKey);
    return Array.isArray(list) ? list.filter((h): h is string => typeof h === 'string') : [];
  }
}

/** The remembered form: a hash, so the state holds no command line or URL. */
function approvalHash(definitionKey: string): string {
  return createHash('sha256').update(definitionKey).digest('hex');
}
