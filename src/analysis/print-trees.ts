/**
 * opt-19's printer passes `print<domtree>`, `print<postdomtree>` and `print<loops>`, byte for
 * byte (LLVM's DominatorTreePrinterPass / PostDominatorTreePrinterPass: DominatorTreeBase::print
 * and PrintDomTree in GenericDomTree.h; LoopPrinterPass: LoopBase::print in GenericLoopInfo.h).
 *
 * What has to match besides the text layout is the order of children and loops, which LLVM
 * does not sort: a tree node's children are in the order SemiNCA numbered them, i.e. the
 * preorder of its DFS (SemiNCAInfo::runDFS: a node is numbered when popped, its successors
 * pushed in reverse so the first one is walked first; for the post-dominator tree the walk
 * goes up predecessors, which LLVM keeps in reverse order of their creation and pushes as they
 * are, so the first predecessor in the text is walked first; the virtual exit's children are
 * the roots in LLVM's order, analysis/postdom.ts). A loop lists its header, then its other
 * blocks in reverse postorder of a forward DFS from the entry (PopulateLoopsDFS), and its
 * subloops by decreasing postorder of their headers; top-level loops come in increasing
 * postorder (PopulateLoopsDFS reverses only the subloop lists). DFS numbers
 * are never computed by a printer pass, so they print as invalid ({4294967295,4294967295}).
 *
 * Invariants: every walk uses an explicit stack; unreachable blocks are in neither tree (the
 * post-dominator tree has every block that reaches a root, as LLVM's).
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { Function } from '../ir/function.js';
import { getAttachment } from '../ir/metadata.js';
import { mayReadMemory, mayWriteMemory } from '../ir/effects.js';
import { functionSlots } from '../text/slots.js';
import { printValue } from '../text/printer.js';
import { CFG } from './cfg.js';
import { computeDominators } from './dominators.js';
import { type Loop, findLoops } from './loops.js';
import { postDominators } from './postdom.js';

const INVALID = '{4294967295,4294967295}';

/** `printAsOperand` of each block by id: `%name` or `%N`. */
function blockNames(fn: Function): (b: BasicBlock) => string {
  const slots = functionSlots(fn);
  return (b) => (b.name !== '' ? printValue(b) : `%${slots.nameOf(b)}`);
}

/** Preorder numbers (1-based; 0: not reached) of a DFS from `roots` in turn, LLVM's runDFS. */
function preorder(n: number, roots: ArrayLike<number>, next: (v: number) => ArrayLike<number>): Int32Array {
  const num = new Int32Array(n + 1);
  let last = 0;
  const stack: number[] = [];
  for (let r = 0; r < roots.length; r++) {
    stack.push(roots[r]);
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (num[v] !== 0) continue;
      num[v] = ++last;
      const s = next(v);
      for (let k = s.length - 1; k >= 0; k--) if (num[s[k]] === 0) stack.push(s[k]);
    }
  }
  return num;
}

/** The tree of `idom` (node → parent, -1 at the root) printed as PrintDomTree does. */
function printTree(root: number, idom: (v: number) => number, nodes: number, num: Int32Array, label: (v: number) => string): string {
  const kids: number[][] = [];
  for (let v = 0; v < nodes; v++) kids.push([]);
  const order: number[] = [];
  for (let v = 0; v < nodes; v++) if (num[v] !== 0 && v !== root) order.push(v);
  order.sort((a, b) => num[a] - num[b]);
  for (const v of order) kids[idom(v)].push(v);
  let out = '';
  const stack: [number, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [v, lev] = stack.pop()!;
    out += `${'  '.repeat(lev)}[${lev}] ${label(v)} ${INVALID} [${lev - 1}]\n`;
    const k = kids[v];
    for (let i = k.length - 1; i >= 0; i--) stack.push([k[i], lev + 1]);
  }
  return out;
}

/** `opt -passes='print<domtree>'` for one function. */
export function printDomTreeLLVM(fn: Function): string {
  const cfg = new CFG(fn);
  const dt = computeDominators(cfg);
  const name = blockNames(fn);
  const num = preorder(cfg.n, [cfg.root], (v) => cfg.successors(v));
  const tree = printTree(cfg.root, (v) => dt.idom[v], cfg.n, num, (v) => name(cfg.blocks[v]!));
  return `DominatorTree for function: ${fn.name}\n=============================--------------------------------\nInorder Dominator Tree: DFSNumbers invalid: 0 slow queries.\n${tree}Roots: ${name(cfg.blocks[cfg.root]!)} \n`;
}

/** `opt -passes='print<postdomtree>'` for one function. */
export function printPostDomTreeLLVM(fn: Function): string {
  const cfg = new CFG(fn);
  const pdt = postDominators(cfg);
  const name = blockNames(fn);
  const exit = cfg.n;
  const num = preorder(cfg.n + 1, [exit], (v) => (v === exit ? pdt.roots : cfg.predecessors(v)));
  const tree = printTree(exit, (v) => pdt.idom[v], cfg.n + 1, num, (v) => (v === exit ? ' <<exit node>>' : name(cfg.blocks[v]!)));
  let roots = '';
  for (const r of pdt.roots) roots += name(cfg.blocks[r]!) + ' ';
  return `PostDominatorTree for function: ${fn.name}\n=============================--------------------------------\nInorder PostDominator Tree: DFSNumbers invalid: 0 slow queries.\n${tree}Roots: ${roots}\n`;
}

/** Loop::isAnnotatedParallel: a loop ID on the latches, and every memory access in the loop's parallel access group. */
function isAnnotatedParallel(l: Loop, cfg: CFG, latches: readonly number[]): boolean {
  let id = null;
  for (const b of latches) {
    const t = cfg.blocks[b]!.last;
    const md = t === null ? null : getAttachment(t.md, 'llvm.loop');
    if (md === null || (id !== null && md !== id)) return false;
    id = md;
  }
  if (id === null) return false;
  // (parallel_accesses groups and llvm.mem.parallel_loop_access are not modelled: a loop
  // with any memory access counts as not parallel, which is what clang's output gives)
  for (const b of l.blocks()) for (let i = cfg.blocks[b]!.first; i !== null; i = i.next) if (mayReadMemory(i) || mayWriteMemory(i)) return false;
  return true;
}

/** `opt -passes='print<loops>'` for one function. */
export function printLoopsLLVM(fn: Function): string {
  const cfg = new CFG(fn);
  const li = findLoops(cfg, computeDominators(cfg));
  const name = blockNames(fn);
  // postorder of a forward DFS from the entry, successors in order (LLVM's po_iterator)
  const post = new Int32Array(cfg.n).fill(-1);
  const seen = new Uint8Array(cfg.n);
  let t = 0;
  const st: [number, number][] = [[cfg.root, 0]];
  seen[cfg.root] = 1;
  while (st.length > 0) {
    const top = st[st.length - 1];
    const s = cfg.successors(top[0]);
    if (top[1] < s.length) {
      const w = s[top[1]++];
      if (!seen[w]) {
        seen[w] = 1;
        st.push([w, 0]);
      }
    } else {
      post[top[0]] = t++;
      st.pop();
    }
  }
  const byPost = (a: number, b: number): number => post[b] - post[a];
  let out = `Loop info for function '${fn.name}':\n`;
  // top-level loops stay in the postorder of their headers (only subloops are reversed)
  const stack: Loop[] = li.topLevel.slice().sort((a, b) => byPost(a.header, b.header));
  while (stack.length > 0) {
    const l = stack.pop()!;
    const others = Array.from(l.blocks()).filter((b) => b !== l.header).sort(byPost);
    const latches = Array.from(cfg.predecessors(l.header)).filter((p) => l.contains(p));
    const text = [l.header, ...others].map((b) => {
      let s = name(cfg.blocks[b]!);
      if (b === l.header) s += '<header>';
      if (latches.includes(b)) s += '<latch>';
      if (Array.from(cfg.successors(b)).some((x) => !l.contains(x))) s += '<exiting>';
      return s;
    });
    out += `${'  '.repeat(2 * (l.depth - 1))}${isAnnotatedParallel(l, cfg, latches) ? 'Parallel ' : ''}Loop at depth ${l.depth} containing: ${text.join(',')}\n`;
    const subs = l.subLoops.slice().sort((a, b) => byPost(a.header, b.header));
    for (let i = subs.length - 1; i >= 0; i--) stack.push(subs[i]);
  }
  return out;
}
