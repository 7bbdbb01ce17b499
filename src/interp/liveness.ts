/**
 * Which SSA values are live across each call that suspends a compiled activation
 * (classic backward live-variable analysis over bit vectors, SSA flavour: a phi's operand
 * is used at the end of its incoming block, a phi's result is defined at the top of its
 * block — Appel, "Modern Compiler Implementation", §10.1; Brandner et al. for phis).
 *
 * Only instruction results are tracked (arguments are re-read from the frame on resume).
 * Invariant of the result: for each splitting call, the list holds exactly the values
 * defined before the call on some path and used after it.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { ValueKind } from '../ir/value.js';

/**
 * @param blocks  the function's blocks in layout order
 * @param index   dense index of each tracked value (instructions with results), −1 otherwise
 * @param nValues number of tracked values
 * @param isSplit whether an instruction suspends the activation
 * @returns for each splitting call, the indices of the values live after it (excluding its own result)
 */
export function liveAcrossCalls(
  blocks: BasicBlock[],
  index: Map<Instruction, number>,
  nValues: number,
  isSplit: (i: Instruction) => boolean,
): Map<Instruction, number[]> {
  const W = (nValues + 31) >>> 5;
  const nb = blocks.length;
  const bIndex = new Map<BasicBlock, number>();
  for (let b = 0; b < nb; b++) bIndex.set(blocks[b], b);
  const ue = new Int32Array(nb * W);
  const def = new Int32Array(nb * W);
  const phiUse = new Int32Array(nb * W); // values used by successors' phis on edges out of b
  const liveOut = new Int32Array(nb * W);
  const liveIn = new Int32Array(nb * W);
  const succs: number[][] = [];

  const idxOf = (v: unknown): number => {
    const vv = v as Instruction;
    if (vv.kind !== ValueKind.Instruction) return -1;
    const k = index.get(vv);
    return k === undefined ? -1 : k;
  };

  for (let b = 0; b < nb; b++) {
    const bb = blocks[b];
    const o = b * W;
    for (let i = bb.first; i !== null; i = i.next) {
      if (i.op === Opcode.Phi) {
        const bs = i.blocks!;
        for (let k = 0; k < i.ops.length; k++) {
          const v = idxOf(i.ops[k].value);
          const p = bIndex.get(bs[k]);
          if (v >= 0 && p !== undefined) phiUse[p * W + (v >>> 5)] |= 1 << (v & 31);
        }
      } else {
        for (let k = 0; k < i.ops.length; k++) {
          const v = idxOf(i.ops[k].value);
          if (v >= 0 && (def[o + (v >>> 5)] & (1 << (v & 31))) === 0) ue[o + (v >>> 5)] |= 1 << (v & 31);
        }
      }
      const d = index.get(i);
      if (d !== undefined) def[o + (d >>> 5)] |= 1 << (d & 31);
    }
    const s: number[] = [];
    const t = bb.terminator();
    if (t !== null) for (const sb of t.successors()) {
      const k = bIndex.get(sb);
      if (k !== undefined && !s.includes(k)) s.push(k);
    }
    succs.push(s);
  }

  // iterate to a fixed point, blocks in reverse layout order (close to postorder for reducible code)
  let changed = true;
  while (changed) {
    changed = false;
    for (let b = nb - 1; b >= 0; b--) {
      const o = b * W;
      const ss = succs[b];
      for (let w = 0; w < W; w++) {
        let out = phiUse[o + w];
        for (let k = 0; k < ss.length; k++) out |= liveIn[ss[k] * W + w];
        liveOut[o + w] = out;
        const inn = ue[o + w] | (out & ~def[o + w]);
        if (inn !== liveIn[o + w]) {
          liveIn[o + w] = inn;
          changed = true;
        }
      }
    }
  }

  const result = new Map<Instruction, number[]>();
  const live = new Int32Array(W);
  for (let b = 0; b < nb; b++) {
    const bb = blocks[b];
    let any = false;
    for (let i = bb.first; i !== null; i = i.next) if (isSplit(i)) any = true;
    if (!any) continue;
    live.set(liveOut.subarray(b * W, b * W + W));
    for (let i = bb.last; i !== null; i = i.prev) {
      const d = index.get(i);
      if (d !== undefined) live[d >>> 5] &= ~(1 << (d & 31));
      if (isSplit(i)) {
        const list: number[] = [];
        for (let w = 0; w < W; w++) {
          let bits = live[w];
          while (bits !== 0) {
            const low = bits & -bits;
            list.push(w * 32 + (31 - Math.clz32(low)));
            bits ^= low;
          }
        }
        result.set(i, list);
      }
      if (i.op !== Opcode.Phi) {
        for (let k = 0; k < i.ops.length; k++) {
          const v = idxOf(i.ops[k].value);
          if (v >= 0) live[v >>> 5] |= 1 << (v & 31);
        }
      }
    }
  }
  return result;
}
