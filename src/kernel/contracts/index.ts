export * from './model.js';
export * from './workspace.js';
export * from './tool.js';
export * from './events.js';
export * from './state.js';
export * from './runtime.js';
export * from './timers.js';
export * from './memory.js';
