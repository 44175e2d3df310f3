// The proposed content of an edit intent: its tool's own preview on the file's current bytes, so
// the diff shows exactly what approving would write. A tool is an edit by what it declares (kind
// `edit` with a preview), never by its name, so any such tool — an MCP-like one included — gets
// the diff. The preview is kept by intent id and handed back to the tool when the call runs
// (the runtime's EditPreviewSource): one read and one plan for the diff, then one read to check
// the file did not change, and no second plan. No vscode.
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

export class EditPreviews implements EditPreviewSource {
  private readonly byIntent = new Map<string, PreviewedEdit>();

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
    if (preview.ok) this.byIntent.set(intent.id, { rel, baseHash: current ? contentHash(current) : undefined, preview });
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
