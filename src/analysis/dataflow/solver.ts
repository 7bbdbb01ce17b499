/**
 * A bit-vector data-flow solver (Kildall's framework; the round-robin worklist of Cooper and
 * Torczon, "Engineering a Compiler", §9.2): gen/kill transfer functions, union or
 * intersection meet, forward or backward.
 *
 *   forward:  IN[b]  = ⋀_{p ∈ pred(b)} OUT[p]  (∧ boundary at the entry)   ∪ meetGen[b]
 *             OUT[b] = gen[b] ∪ (IN[b] − kill[b])
 *   backward: OUT[b] = ⋀_{s ∈ succ(b)} IN[s]   (∧ boundary at blocks without successors) ∪ meetGen[b]
 *             IN[b]  = gen[b] ∪ (OUT[b] − kill[b])
 *
 * Invariants: sets start at the meet's top (∅ for union, all ones for intersection) except
 * the boundary, and only move down the lattice, so the loop ends at the maximal fixed point.
 * Blocks are visited in reverse postorder (forward) or postorder (backward), repeatedly, but
 * only those whose inputs changed (a dirty flag per block). Forward problems cover the blocks
 * reachable from the entry (the others keep empty sets); backward problems cover every block.
 */
import type { CFG } from '../cfg.js';
import { BitMatrix } from './bitset.js';

export type Direction = 'forward' | 'backward';
export type Meet = 'union' | 'intersection';

export interface BitProblem {
  direction: Direction;
  meet: Meet;
  /** Width of the sets. */
  bits: number;
  /** Per block id. */
  gen: BitMatrix;
  kill: BitMatrix;
  /** Bits joined right after the meet (e.g. a block's phi operands, live at its end). */
  meetGen?: BitMatrix | null;
  /** Contribution of the virtual entry (forward) / exit (backward) edge; default ∅. */
  boundary?: Uint32Array | null;
  /** Told every block visit (solver-trace.ts); absent or null: no cost. */
  trace?: SolverVisitHook | null;
}

/** Receives the solver's rounds and block visits, with the sets after the visit. */
export interface SolverVisitHook {
  visit(round: number, block: number, inM: BitMatrix, outM: BitMatrix, changed: boolean): void;
  done(rounds: number, visits: number, inM: BitMatrix, outM: BitMatrix): void;
}

export interface BitSolution {
  /** IN and OUT sets per block id. */
  readonly in: BitMatrix;
  readonly out: BitMatrix;
  /** Number of block visits until the fixed point. */
  readonly visits: number;
}

export function solve(cfg: CFG, p: BitProblem): BitSolution {
  const n = cfg.n;
  const bits = p.bits;
  const inM = new BitMatrix(n, bits);
  const outM = new BitMatrix(n, bits);
  const w = inM.words;
  const forward = p.direction === 'forward';
  const isUnion = p.meet === 'union';
  const gen = p.gen.data;
  const kill = p.kill.data;
  const meetGen = p.meetGen ? p.meetGen.data : null;
  const boundary = p.boundary ?? null;
  const IN = inM.data;
  const OUT = outM.data;
  // The side that the meet produces ("before") and the side the transfer produces ("after").
  const before = forward ? IN : OUT;
  const after = forward ? OUT : IN;
  const edgeOff = forward ? cfg.predOff : cfg.succOff;
  const edges = forward ? cfg.pred : cfg.succ;
  const nextOff = forward ? cfg.succOff : cfg.predOff;
  const next = forward ? cfg.succ : cfg.pred;

  // Visit order.
  let order: Int32Array;
  if (forward) order = cfg.dfs.rpo;
  else {
    const rpo = cfg.dfs.rpo;
    const all = new Int32Array(cfg.order.length);
    let k = 0;
    for (let i = rpo.length - 1; i >= 0; i--) all[k++] = rpo[i];
    for (let i = cfg.order.length - 1; i >= 0; i--) if (!cfg.isReachable(cfg.order[i])) all[k++] = cfg.order[i];
    order = all;
  }
  const inOrder = new Uint8Array(n);
  for (let i = 0; i < order.length; i++) inOrder[order[i]] = 1;

  // Top for intersection problems: every "after" set starts full so the meet can only shrink.
  if (!isUnion) for (let i = 0; i < order.length; i++) outOrInFill(after, order[i], w, bits);

  const dirty = new Uint8Array(n);
  for (let i = 0; i < order.length; i++) dirty[order[i]] = 1;
  const tmp = new Uint32Array(w);
  let visits = 0;
  let again = true;
  const hook = p.trace ?? null;
  let round = 0;
  while (again) {
    again = false;
    round++;
    for (let i = 0; i < order.length; i++) {
      const b = order[i];
      if (!dirty[b]) continue;
      dirty[b] = 0;
      visits++;
      const base = b * w;
      // meet
      let first = true;
      const e0 = edgeOff[b];
      const e1 = edgeOff[b + 1];
      const atBoundary = forward ? b === cfg.root : e1 === e0;
      if (atBoundary) {
        if (boundary !== null) for (let k = 0; k < w; k++) tmp[k] = boundary[k];
        else tmp.fill(0);
        first = false;
      }
      for (let j = e0; j < e1; j++) {
        const q = edges[j];
        if (!inOrder[q]) continue;
        const qb = q * w;
        if (first) {
          for (let k = 0; k < w; k++) tmp[k] = after[qb + k];
          first = false;
        } else if (isUnion) {
          for (let k = 0; k < w; k++) tmp[k] |= after[qb + k];
        } else {
          for (let k = 0; k < w; k++) tmp[k] &= after[qb + k];
        }
      }
      if (first) tmp.fill(0); // no inputs at all
      if (meetGen !== null) for (let k = 0; k < w; k++) tmp[k] |= meetGen[base + k];
      for (let k = 0; k < w; k++) before[base + k] = tmp[k];
      // transfer
      let changed = false;
      for (let k = 0; k < w; k++) {
        const v = (gen[base + k] | (tmp[k] & ~kill[base + k])) >>> 0; // unsigned, like the Uint32Array it is compared with
        if (v !== after[base + k]) {
          after[base + k] = v;
          changed = true;
        }
      }
      if (hook !== null) hook.visit(round, b, inM, outM, changed);
      if (changed) {
        for (let j = nextOff[b]; j < nextOff[b + 1]; j++) {
          const s = next[j];
          if (inOrder[s] && !dirty[s]) {
            dirty[s] = 1;
            again = true;
          }
        }
      }
    }
  }
  if (hook !== null) hook.done(round, visits, inM, outM);
  return { in: inM, out: outM, visits };
}

function outOrInFill(data: Uint32Array, row: number, w: number, bits: number): void {
  const base = row * w;
  for (let k = 0; k < w; k++) data[base + k] = 0xffffffff;
  const extra = w * 32 - bits;
  if (extra > 0 && w > 0) data[base + w - 1] >>>= extra;
}
