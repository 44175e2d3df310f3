// The files a task's library is read from — custom agents, slash commands (prompt files too) and
// MCP server configs — and the debounce between a burst of file events and one reload. The
// extension's watcher (src/vscode/workspace/library-watcher.ts) feeds it; it never imports vscode
// so the grouping is tested in plain Node. A save writes a file several times and a checkout
// changes dozens: the tasks are rebuilt once, after the burst, never once per event.
/** The workspace's agent and command folders (`.keel/`, `.claude/`, `.github/`), as one glob. */
export const WORKSPACE_LIBRARY_GLOB = '{.keel,.claude,.github}/{agents,commands,prompts}/**';
export const WORKSPACE_MCP_GLOB = '.vscode/mcp.json';
const LIBRARY_DEBOUNCE_MS = 300;

/** What a change reloads: the agents and commands a task reads, or also the MCP servers. */
export type LibraryChange = 'library' | 'mcp';

/**
 * Collects changes and calls `flush` once, `delayMs` after the last one, with every kind seen
 * in the burst. `dispose` drops a pending flush (the window is closing).
 */
export function libraryDebounce(flush: (kinds: ReadonlySet<LibraryChange>) => void, delayMs = LIBRARY_DEBOUNCE_MS) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let kinds = new Set<LibraryChange>();
  return {
    changed(kind: LibraryChange): void {
      kinds.add(kind);
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        const seen = kinds;
        kinds = new Set();
        flush(seen);
      }, delayMs);
    },
    dispose(): void {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
