/**
 * The call graph of a module: for each defined function, the call sites and the distinct
 * functions they call directly, and the strongly connected components bottom-up (callees
 * before callers), found with Tarjan's algorithm (scc.ts; iterative, so a call chain of
 * any length cannot overflow the JS stack).
 *
 * Invariants: nodes are the module's functions in module order (declarations included, with
 * no edges); Tarjan emits a component only after every component reachable from it, which
 * is exactly bottom-up order; a function is recursive when its component has several
 * members or it calls itself. Indirect calls are counted per function (`indirectCalls`) but
 * have no edges: their targets are unknown.
 */
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import type { Module } from '../ir/module.js';
import { Opcode } from '../ir/opcodes.js';
import { ValueKind } from '../ir/value.js';
import { csrOfLists, stronglyConnectedComponents } from './scc.js';

export class CallGraph {
  /** Functions of the module, indexed by node number. */
  readonly functions: Function[];
  private readonly index = new Map<Function, number>();
  /** Direct call instructions per node, in layout order. */
  readonly callSites: Instruction[][];
  /** Distinct callees per node (functions of this module), in first-call order. */
  readonly callees: number[][];
  /** Calls through a pointer per node. */
  readonly indirectCalls: Int32Array;
  /** Components bottom-up; each lists node numbers. */
  readonly sccs: number[][];
  /** Component index of each node (position in `sccs`). */
  readonly sccOf: Int32Array;
  private readonly selfCall: Uint8Array;

  constructor(readonly module: Module) {
    const fns = module.functions.slice();
    this.functions = fns;
    const n = fns.length;
    for (let i = 0; i < n; i++) this.index.set(fns[i], i);
    this.callSites = new Array(n);
    this.callees = new Array(n);
    this.indirectCalls = new Int32Array(n);
    this.selfCall = new Uint8Array(n);
    for (let f = 0; f < n; f++) {
      const sites: Instruction[] = [];
      const out: number[] = [];
      const seen = new Set<number>();
      for (let b = fns[f].firstBlock; b !== null; b = b.next) {
        for (let i = b.first; i !== null; i = i.next) {
          if (i.op !== Opcode.Call) continue;
          const c = i.operand(0);
          if (c.kind !== ValueKind.Function) {
            if (c.kind !== ValueKind.InlineAsm) this.indirectCalls[f]++;
            continue;
          }
          const g = this.index.get(c as Function);
          if (g === undefined) continue;
          sites.push(i);
          if (g === f) this.selfCall[f] = 1;
          if (!seen.has(g)) {
            seen.add(g);
            out.push(g);
          }
        }
      }
      this.callSites[f] = sites;
      this.callees[f] = out;
    }
    const { off, adj } = csrOfLists(this.callees);
    const { sccs, sccOf } = stronglyConnectedComponents(n, off, adj);
    for (const c of sccs) c.reverse(); // each component from its root
    this.sccs = sccs;
    this.sccOf = sccOf;
  }

  nodeOf(fn: Function): number {
    const i = this.index.get(fn);
    if (i === undefined) throw new Error(`@${fn.name} is not in the call graph`);
    return i;
  }

  /** The functions `fn` calls directly (distinct, module functions). */
  calleesOf(fn: Function): Function[] {
    return this.callees[this.nodeOf(fn)].map((i) => this.functions[i]);
  }

  /** Components as functions, bottom-up. */
  sccFunctions(): Function[][] {
    return this.sccs.map((c) => c.map((i) => this.functions[i]));
  }

  /** Whether `fn` can call itself (directly or through others). */
  isRecursive(fn: Function): boolean {
    const i = this.nodeOf(fn);
    return this.selfCall[i] === 1 || this.sccs[this.sccOf[i]].length > 1;
  }

  /** Whether a and b are in the same component. */
  sameSCC(a: Function, b: Function): boolean {
    return this.sccOf[this.nodeOf(a)] === this.sccOf[this.nodeOf(b)];
  }
}

export function buildCallGraph(m: Module): CallGraph {
  return new CallGraph(m);
}
