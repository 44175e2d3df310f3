// Stable `data-testid` values of the webview, shared with end-to-end tests so a rename breaks
// the build instead of a test run. Per-intent buttons also sit in a wrapper whose test id
// carries the intent id (`approve-<intentId>`), since one element holds one test id.
export const TestIds = {
  transcript: 'transcript',
  input: 'input',
  send: 'send',
  stop: 'stop',
  newTask: 'new-task',
  history: 'history',
  taskItem: 'task-item',
  taskOpen: 'task-open',
  taskDelete: 'task-delete',
  userMessage: 'user-message',
  assistantText: 'assistant-text',
  reasoning: 'reasoning',
  intentCard: 'intent-card',
  intentCommand: 'intent-command',
  intentPaths: 'intent-paths',
  hiddenChars: 'hidden-chars',
  approve: 'approve',
  approveTask: 'approve-task',
  approveWorkspace: 'approve-workspace',
  reject: 'reject',
  rejectReason: 'reject-reason',
  rejectConfirm: 'reject-confirm',
  notice: 'notice',
  noticeAction: 'notice-action',
  setApiKey: 'set-api-key',
  resume: 'resume',
  restrictedNotice: 'restricted-notice',
  retryNotice: 'retry-notice',
  meter: 'meter',
  meterDetails: 'meter-details',
  foldNow: 'fold-now',
  foldItem: 'fold-item',
  copyCode: 'copy-code',
  frameCard: 'frame-card',
  planList: 'plan-list',
  planTask: 'plan-task',
} as const;

/** `approve-<intentId>`, `reject-<intentId>`, … */
export const perIntentTestId = (base: string, intentId: string): string => `${base}-${intentId}`;
