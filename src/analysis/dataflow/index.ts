export * from './bitset.js';
export * from './solver.js';
export * from './liveness.js';
export * from './reaching-definitions.js';
export * from './expressions.js';
export * from './available-expressions.js';
export * from './anticipated-expressions.js';
