/**
 * SSA construction and destruction: mem2reg (Cytron et al. with LLVM's refinements), the
 * Braun et al. builder for frontends and its mem2reg-braun pass, redundant-phi removal by
 * SCCs, SSA repair for transforms that duplicate definitions, reg2mem and out-of-SSA with
 * parallel copies.
 */
export { SSABuilder, type SSABuilderOptions, type SSABuilderStats } from '../utils/ssa-builder.js';
export { repairSSA, type NewDefinition, type RepairOptions, type RepairResult } from '../utils/ssa-repair.js';
export { promoteAllocas, promoteMemoryToRegister, traceMem2Reg, type PromoteOptions } from './mem2reg.js';
export { isAllocaPromotable, promotableAllocas, type PromoteStats } from '../utils/promote-memory.js';
export { promoteAllocasBraun, promoteMemoryToRegisterBraun } from './mem2reg-braun.js';
export { removeRedundantPhis, type RedundantPhiStats } from './redundant-phis.js';
export { regToMem, demoteRegToStack, demotePhiToStack } from './reg2mem.js';
export { outOfSSA, type OutOfSSAOptions, type OutOfSSAStats } from './out-of-ssa.js';
export { sequentializeParallelCopy, sequentializeNaively, type ParallelCopy, type CopyStep } from '../utils/parallel-copy.js';
export { splitCriticalEdges, splitEdge } from '../utils/basic-block-utils.js';
export { simplifyPhiLikeLLVM, simplifyPhisLikeLLVM } from '../utils/phi-simplify.js';
export { IDFCalculator } from '../../analysis/idf.js';
export { SSA_PASSES } from './passes.js';
