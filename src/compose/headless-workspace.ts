// The workspace `keel run` and `keel replay` work in: the Node port with the walking search
// fallback, code intelligence on syntax trees (no language servers headless) and the OS sandbox
// the policy's sandboxed commands run in; `keel run` also fetches web pages and reports the
// problems the project's checkers find after each edit. A replay never does either: it would
// request a recorded URL again. `keel run` also opens pages in a headless browser
// (browser_check) when the machine has a Chromium; the hosts it allows are web_fetch's. The code
// index may be kept between runs (a cache under the user's config folder) and report its progress.
import type { CodeIndexOptions } from '../codeintel/code-index.js';
import { TreeSitterIntel } from '../codeintel/tree-sitter-intel.js';
import { createNodeWorkspace, type NodeWorkspace, type NodeWorkspaceOptions } from '../node/node-workspace.js';
import { createNodeProblemSource } from '../node/problems/node-problem-source.js';
import { createWebFetcher } from '../node/web-fetcher.js';
import { createBrowserChecker } from '../node/browser/browser-checker.js';
import { searchByWalking } from '../tools/index.js';

export function headlessWorkspace(
  root: string,
  options: {
    /** Whether web pages are fetched, and the hosts the user allows that are not public. */
    web: false | { allowHosts: readonly string[] };
    /** Where Chromium is, when not looked for (tests point it at a missing path). */
    chromiumPath?: string;
    credentials?: NodeWorkspaceOptions['credentials'];
    sandbox?: NodeWorkspaceOptions['sandbox'];
    /** The code index's cache and progress listener (keel run); none: built afresh, silently. */
    codeIndex?: Pick<CodeIndexOptions, 'cache' | 'onProgress'>;
    /** Whether edits report the problems the project's checkers find (keel run --no-problems: not). */
    problems?: boolean;
  },
): Promise<NodeWorkspace> {
  const { web } = options;
  return createNodeWorkspace(root, {
    fallbackSearch: searchByWalking,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    codeIntel: (ws) => new TreeSitterIntel(ws, options.codeIndex),
    ...(web ? { web: createWebFetcher({ allowHosts: () => web.allowHosts }) } : {}),
    ...(web ? { browser: createBrowserChecker({ allowHosts: () => web.allowHosts, ...chromium(options.chromiumPath) }) } : {}),
    ...(options.problems ? { problems: (ws) => createNodeProblemSource(ws) } : {}),
  });
}

function chromium(path: string | undefined): { chromiumPath?: string } {
  return path ? { chromiumPath: path } : {};
}
