/**
 * ssakit's library API under Node: the platform-neutral library (./core.ts) plus the
 * streaming optimizer, which reads and optimizes a large file function by function on
 * worker threads. Browsers get ./core.ts (package.json's "browser" condition).
 */
import './platform/node.js';

export * from './core.js';
export { optimizeText, canStream, type OptimizeTextOptions, type OptimizeTextResult } from './driver/streaming.js';
export { optimizeTextParallel, findBodies, splitBodies, parallelAvailable, startWorkers, stopWorkers, likelyWorkers, type ParallelOptions, type StartedWorker } from './driver/streaming-parallel.js';
