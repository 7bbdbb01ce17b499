/**
 * The passes of src/transforms/ssa, for src/passes/index.ts: construction (mem2reg, mem2reg-braun),
 * clean-up (redundant-phis) and destruction (reg2mem, out-of-ssa).
 */
import type { PassInfo } from '../../pm/registry.js';
import { mem2regPass } from './mem2reg.js';
import { mem2regBraunPass } from './mem2reg-braun.js';
import { outOfSSAPass } from './out-of-ssa.js';
import { redundantPhisPass } from './redundant-phis.js';
import { reg2memPass } from './reg2mem.js';

export const SSA_PASSES: PassInfo[] = [mem2regPass, mem2regBraunPass, redundantPhisPass, reg2memPass, outOfSSAPass];
