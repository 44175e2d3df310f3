// The one place that touches `acquireVsCodeApi()` (it may be called once per page). In the dev
// harness and the bench a fake with the same shape is defined before the bundle loads.
import type { WebviewMessage } from '../src/protocol/index.js';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** What the UI needs from its host; tests pass their own. */
export interface HostApi {
  post(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

let api: HostApi | undefined;

export function hostApi(): HostApi {
  if (api) return api;
  const vscode = acquireVsCodeApi();
  api = {
    post: (message) => vscode.postMessage(message),
    getState: () => vscode.getState(),
    setState: (state) => vscode.setState(state),
  };
  return api;
}
