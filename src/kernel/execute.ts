// Running an approved intent through its tool and writing the observation back.
import type { Observation, PreviewedEdit, ToolResult } from './contracts/tool.js';
import type { LoopHost } from './loop-host.js';
import { messageOf, shortenMiddle } from './text.js';
import { priorReadOf } from './context/ledger.js';
import { gateRefusal } from './skill-gate.js';

export async function executeIntent(h: LoopHost, id: string): Promise<void> {
  const intent = h.state().intents[id]!;
  const tool = h.registry.tool(intent.tool)!;
  h.emit({ type: 'intent_started', intentId: id });
  let result: ToolResult;
  // A skill activated earlier in the same step (or before a reload) may have closed this tool.
  const gated = gateRefusal(tool, h.visibility, h.state());
  if (gated) {
    result = { ok: false, code: gated.code, content: gated.reason, summary: gated.summary, retryable: false };
  } else if (!h.workspace) {
    result = { ok: false, code: 'execution_failed', content: 'No workspace folder is open, so tools cannot run.' };
  } else {
    try {
      result = await tool.execute(intent.input, {
        workspace: h.workspace,
        signal: h.signal,
        fileVersions: h.state().fileVersions,
        priorRead: (path) => {
          const { ledger, context } = h.state();
          return priorReadOf(ledger, context.foldedThrough, path);
        },
        todos: () => h.state().ledger.todos,
        onProgress: (chunk) => h.output({ kind: 'tool_output', intentId: id, chunk }),
        ...(h.memory ? { memory: h.memory } : {}),
        eventSeq: h.state().lastSeq,
        intentId: id,
        ...(h.frames ? { frames: h.frames } : {}),
        ...(intent.sandbox ? { sandbox: intent.sandbox } : {}),
        ...(h.secrets ? { secrets: h.secrets } : {}),
        report: (update) => h.emit({ type: 'remote_update', intentId: id, ...update }),
        ...withPreview(h, id),
      });
    } catch (err) {
      const code = h.signal.aborted ? 'cancelled' : 'execution_failed';
      result = { ok: false, code, content: `${tool.name} failed: ${messageOf(err)}`, retryable: !h.signal.aborted };
    }
  }
  const content = shortenMiddle(result.content, tool.outputBudgetTokens * 4);
  // A read whose text was cut to the tool's budget did not show the file whole.
  const read = result.facts?.read;
  const facts = content !== result.content && read ? { ...result.facts, read: { ...read, cut: true } } : result.facts;
  const final = { ...result, content, ...(facts ? { facts } : {}) };
  observe(h, id, h.hooks ? await h.hooks.afterTool(h, intent, final) : final);
}

/** Appends an observation, leaving out absent fields so a replayed log deep-equals the live one. */
export function observe(h: Pick<LoopHost, 'emit'>, intentId: string, result: ToolResult): void {
  const observation: Observation = { intentId, ok: result.ok, content: result.content };
  if (result.summary !== undefined) observation.summary = result.summary;
  if (result.code !== undefined) observation.code = result.code;
  if (result.retryable !== undefined) observation.retryable = result.retryable;
  if (result.data !== undefined) observation.data = result.data;
  if (result.fileVersions !== undefined) observation.fileVersions = result.fileVersions;
  if (result.facts !== undefined) observation.facts = result.facts;
  if (result.images !== undefined) observation.images = result.images;
  h.emit({ type: 'observation', observation });
}

/** The preview the host showed for this call, when it kept one. */
function withPreview(h: LoopHost, id: string): { previewed?: PreviewedEdit } {
  const previewed = h.previews?.previewed(id);
  return previewed ? { previewed } : {};
}
