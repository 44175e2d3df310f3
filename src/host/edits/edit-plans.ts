// The proposed content of an edit intent: its tool's own preview on the file's current bytes, so
// the diff shows exactly what approving would write. A tool is an edit by what it declares (kind
// `edit` with a preview), never by its name, so any such tool — an MCP-like one included — gets
// the diff. Previews are kept by intent id (the runtime's EditPreviewSource): the edit tool's
// precheck offers the one it planned on the bytes it read before approval was asked, the diff
// shows it, and the approved call is handed it back — so from proposal to disk the file is read
// once for the plan and once to check it did not change, and planned once. A preview the
// precheck did not offer (a resumed task) is planned here on a fresh read. No vscode.
import {
  contentHash,
  type EditPreview,
  type EditPreviewSource,
  type PreviewedEdit,
  type ToolDefinition,
  type ToolIntent,
  type Workspace,
} from '../../kernel/index.js';

export type PlanOutcome = { ok: true; content: string } | { ok: false; message: string };

type PreviewingTool = ToolDefinition & { preview: NonNullable<ToolDefinition['preview']> };

/** A tool that changes a file and can say how, before it runs. */
function previewsEdits(tool: ToolDefinition | undefined): tool is PreviewingTool {
  return tool?.kind === 'edit' && tool.preview !== undefined;
}

/** Undefined when the intent's tool changes no file (or cannot preview the change). */
export function planIntentEdit(
  tool: ToolDefinition | undefined,
  intent: ToolIntent,
  current: Uint8Array | undefined,
  rel?: string,
): PlanOutcome | undefined {
  if (!previewsEdits(tool)) return undefined;
  return outcomeOf(tool.preview(intent.input, current, rel));
}

function outcomeOf(preview: EditPreview): PlanOutcome {
  return preview.ok ? { ok: true, content: preview.proposedContent } : { ok: false, message: preview.message };
}

/** An edit planned for its diff: the file, whether it exists, and the proposed content or why none. */
export interface PreparedEdit {
  rel: string;
  exists: boolean;
  outcome: PlanOutcome;
}

/** Previews kept at most (the oldest go first): edits waiting for a decision are few. */
const MAX_KEPT = 64;

export class EditPreviews implements EditPreviewSource {
  private readonly byIntent = new Map<string, PreviewedEdit>();

  /** An edit tool's precheck planned this on the bytes it read (the kernel passes it on). */
  offer(intentId: string, previewed: PreviewedEdit): void {
    this.byIntent.delete(intentId);
    this.byIntent.set(intentId, previewed);
    for (const old of this.byIntent.keys()) {
      if (this.byIntent.size <= MAX_KEPT) break;
      this.byIntent.delete(old);
    }
  }

  /** The edit for its diff: the preview offered for it, or else one planned now. */
  async forDiff(
    intent: ToolIntent,
    tool: ToolDefinition | undefined,
    workspace: Pick<Workspace, 'resolve' | 'stat' | 'readFile'>,
  ): Promise<PreparedEdit | undefined> {
    const kept = previewsEdits(tool) ? this.byIntent.get(intent.id) : undefined;
    if (kept) return { rel: kept.rel, exists: kept.baseHash !== undefined, outcome: outcomeOf(kept.preview) };
    return this.prepare(intent, tool, workspace);
  }

  /**
   * Reads the intent's file once and plans the change with its tool's preview, kept for the call.
   * Undefined when the tool is not an edit tool with a preview, or names no file.
   */
  async prepare(
    intent: ToolIntent,
    tool: ToolDefinition | undefined,
    workspace: Pick<Workspace, 'resolve' | 'stat' | 'readFile'>,
  ): Promise<PreparedEdit | undefined> {
    const path = intent.paths[0];
    if (!previewsEdits(tool) || !path) return undefined;
    this.byIntent.delete(intent.id);
    const rel = await workspace.resolve(path);
    const stat = await workspace.stat(rel);
    if (stat && stat.type !== 'file') return { rel, exists: false, outcome: { ok: false, message: `${rel} is not a file.` } };
    const current = stat ? await workspace.readFile(rel) : undefined;
    const preview = tool.preview(intent.input, current, rel);
    if (preview.ok) this.offer(intent.id, { rel, baseHash: current ? contentHash(current) : undefined, preview });
    return { rel, exists: current !== undefined, outcome: outcomeOf(preview) };
  }

  previewed(intentId: string): PreviewedEdit | undefined {
    return this.byIntent.get(intentId);
  }

  /** The intent was decided and ran, or its diff closed: its preview goes. */
  forget(intentId: string): void {
    this.byIntent.delete(intentId);
  }
}
