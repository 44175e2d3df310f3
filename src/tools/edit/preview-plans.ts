// One plan from proposal to disk: the plan an edit tool's preview made for the diff the user
// approved is the one its execute writes, when the file still holds the bytes it was planned on.
// Only plans this tool's own preview made are taken back (a WeakSet remembers them), so nothing
// handed in from outside is ever written as a plan.
import type { EditPreview, PreviewedEdit } from '../../kernel/index.js';
import type { FileSnapshot } from '../file-access.js';

type Planned = { ok: true; newText: string; newBytes: Uint8Array };

export class PreviewPlans<P extends Planned> {
  private readonly made = new WeakSet<P>();

  /** The preview of a plan this tool made for `path`. */
  preview(path: string, plan: P): EditPreview {
    this.made.add(plan);
    return { ok: true, path, proposedContent: plan.newText, proposedBytes: plan.newBytes, plan };
  }

  /** The previewed plan, when this tool made it for this very file and the file still hashes the same. */
  reuse(previewed: PreviewedEdit | undefined, snap: FileSnapshot): P | undefined {
    if (!previewed || previewed.rel !== snap.rel || previewed.baseHash !== snap.hash) return undefined;
    const plan = previewed.preview.plan;
    return typeof plan === 'object' && plan !== null && this.made.has(plan as P) ? (plan as P) : undefined;
  }
}
