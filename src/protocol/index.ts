// The host ↔ webview protocol: every message, both directions, as zod schemas.
// Host → webview: HostMessage (session/snapshot, transcript/delta, tasks/list).
// Webview → host: WebviewMessage (webview/ready, task/*, intent/*, apiKey/set, log/show, …).
export * from './kernel-enums.js';
export * from './transcript-item.js';
export * from './checkpoint-items.js';
export * from './view-state.js';
export * from './activity.js';
export * from './delta-op.js';
export * from './host-message.js';
export * from './webview-message.js';
export * from './parse.js';
export * from './test-ids.js';
export * from './ids.js';
export * from './attachments.js';
export * from './worktree-sessions.js';
