/**
 * The call graph of a module: for each defined function, the call sites and the distinct
 * functions they call directly, and the strongly connected components bottom-up (callees
 * before callers), found with Tarjan's algorithm run iteratively (an explicit stack of
 * nodes and edge cursors, so a call chain of any length cannot overflow the JS stack).
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
    const { sccs, sccOf } = tarjan(n, this.callees);
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

/** Tarjan's SCCs of a graph given as adjacency lists; components come out in reverse topological order. */
export function tarjan(n: number, adj: readonly (readonly number[])[]): { sccs: number[][]; sccOf: Int32Array } {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const cursor = new Int32Array(n);
  const sccOf = new Int32Array(n).fill(-1);
  const sccs: number[][] = [];
  let sp = 0;
  let counter = 0;
  for (let r = 0; r < n; r++) {
    if (index[r] >= 0) continue;
    let csp = 0;
    callNode[csp] = r;
    cursor[csp++] = 0;
    index[r] = low[r] = counter++;
    stack[sp++] = r;
    onStack[r] = 1;
    while (csp > 0) {
      const top = csp - 1;
      const v = callNode[top];
      const edges = adj[v];
      if (cursor[top] < edges.length) {
        const w = edges[cursor[top]++];
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack[sp++] = w;
          onStack[w] = 1;
          callNode[csp] = w;
          cursor[csp++] = 0;
        } else if (onStack[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      csp--;
      if (csp > 0) {
        const p = callNode[csp - 1];
        if (low[v] < low[p]) low[p] = low[v];
      }
      if (low[v] === index[v]) {
        const comp: number[] = [];
        let w: number;
        do {
          w = stack[--sp];
          onStack[w] = 0;
          sccOf[w] = sccs.length;
          comp.push(w);
        } while (w !== v);
        comp.reverse();
        sccs.push(comp);
      }
    }
  }
  return { sccs, sccOf };
}

export function buildCallGraph(m: Module): CallGraph {
  return new CallGraph(m);
}
