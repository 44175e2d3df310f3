// Fleets of headless tasks: jobs, their folders, the shared model gate and budget, and the queue
// on BullMQ + Redis (or in this process). The only folder that imports bullmq and ioredis.
export { FleetJobSchema, parseJobLines, type FleetJob } from './job.js';
export { jobFolder, prepareWorkspace, removeFolder, type AllowedFolders } from './job-folder.js';
export { gatedProvider, localGate, type GateLimits, type ModelGate } from './model-gate.js';
export { redisGate } from './redis-gate.js';
export { budgetKeys, localFleetBudget, redisFleetBudget, type FleetBudget } from './fleet-budget.js';
export { tally, type FleetResult } from './fleet-result.js';
export {
  addJobs,
  connectFleet,
  DuplicateJob,
  fleetResults,
  fleetStatus,
  openFleet,
  startWorker,
  type FleetConnection,
  type FleetStatus,
} from './queue.js';
export { RedisUnreachable } from './reach.js';
export { runEmbedded } from './embedded.js';
