// The workspace `keel run` and `keel replay` work in: the Node port with the walking search
// fallback, code intelligence on syntax trees (no language servers headless) and the OS sandbox
// the policy's sandboxed commands run in; `keel run` also fetches web pages and reports the
// problems the project's checkers find after each edit. A replay never
// does: it would request a recorded URL again.
import { TreeSitterIntel } from '../codeintel/tree-sitter-intel.js';
import { createNodeWorkspace, type NodeWorkspace, type NodeWorkspaceOptions } from '../node/node-workspace.js';
import { createNodeProblemSource } from '../node/problems/node-problem-source.js';
import { createWebFetcher } from '../node/web-fetcher.js';
import { searchByWalking } from '../tools/index.js';

export function headlessWorkspace(
  root: string,
  options: {
    /** Whether web pages are fetched, and the hosts the user allows that are not public. */
    web: false | { allowHosts: readonly string[] };
    credentials?: NodeWorkspaceOptions['credentials'];
    sandbox?: NodeWorkspaceOptions['sandbox'];
    /** Whether edits report the problems the project's checkers find (keel run --no-problems: not). */
    problems?: boolean;
  },
): Promise<NodeWorkspace> {
  const { web } = options;
  return createNodeWorkspace(root, {
    fallbackSearch: searchByWalking,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    codeIntel: (ws) => new TreeSitterIntel(ws),
    ...(web ? { web: createWebFetcher({ allowHosts: () => web.allowHosts }) } : {}),
    ...(options.problems ? { problems: (ws) => createNodeProblemSource(ws) } : {}),
  });
}
