/** Analyses: computed from a function, never mutating it. */
export * from './graph.js';
export * from './cfg.js';
export * from './csr.js';
export * from './trace.js';
export * from './numbering.js';
export * from './dominators.js';
export { idomsCHK } from './dominators-chk.js';
export { idomsSemiNCA } from './dominators-seminca.js';
export * from './frontier.js';
export * from './idf.js';
export * from './postdom.js';
export * from './control-dependence.js';
export * from './loops.js';
export * from './dataflow/index.js';
export * from './scc.js';
