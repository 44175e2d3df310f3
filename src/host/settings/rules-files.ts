// Which file a click on the "Rules: …" line may open: only a rules file the shown task's prompt
// carried (its latest rules_used event), and only as a plain workspace-relative path. The webview
// is untrusted: a path it sends is a request, never an instruction to open whatever it names.
import type { RuntimeEvent } from '../../kernel/index.js';

export function rulesFileToOpen(events: readonly RuntimeEvent[], requested: string): string | undefined {
  const used = latestRules(events);
  if (!used.includes(requested)) return undefined;
  const parts = requested.split(/[\\/]/);
  if (requested.startsWith('/') || /^[A-Za-z]:/.test(requested) || parts.some((p) => p === '..' || p === '')) return undefined;
  return requested;
}

function latestRules(events: readonly RuntimeEvent[]): readonly string[] {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === 'rules_used') return event.paths;
  }
  return [];
}
