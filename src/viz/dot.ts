/**
 * Graphviz DOT writers for a function: the CFG with its instructions (as `opt
 * -passes=dot-cfg` draws it: record nodes, T/F ports on conditional branches), the dominator
 * and post-dominator trees, the CFG with dashed dominance-frontier edges, and the CFG with
 * natural loops as nested clusters, and the control-dependence graph.
 */
import { CFG } from '../analysis/cfg.js';
import { DominatorTree, computeDominators } from '../analysis/dominators.js';
import { DominanceFrontier, frontierOfTree } from '../analysis/frontier.js';
import { LoopInfo, Loop, findLoops } from '../analysis/loops.js';
import { postDominators } from '../analysis/postdom.js';
import { controlDependence } from '../analysis/control-dependence.js';
import { blockNames } from '../analysis/report.js';
import type { Function } from '../ir/function.js';
import { Opcode } from '../ir/opcodes.js';
import { ConstantInt } from '../ir/constants.js';
import { printInstruction } from '../text/printer.js';

export type GraphKind = 'cfg' | 'domtree' | 'postdomtree' | 'df' | 'loops' | 'cdg';
export const GRAPH_KINDS: readonly GraphKind[] = ['cfg', 'domtree', 'postdomtree', 'df', 'loops', 'cdg'];

/** Escapes text for a DOT double-quoted string. */
function q(s: string): string {
  return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n') + '"';
}

/** Escapes text inside a record label (braces, bars, angle brackets are structure there). */
function recordText(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/([{}<>|"])/g, '\\$1').replace(/ /g, '\\ ');
}

interface CfgNodeOptions {
  /** Print instructions in the nodes (default true). */
  instructions?: boolean;
}

/** Lines of node definitions and CFG edges (shared by cfg, df and loops). */
function cfgBody(fn: Function, cfg: CFG, names: string[], opts: CfgNodeOptions, indent = '  '): { nodes: Map<number, string>; edges: string[] } {
  const nodes = new Map<number, string>();
  const edges: string[] = [];
  const withInsts = opts.instructions ?? true;
  for (const id of cfg.order) {
    const bb = cfg.blocks[id]!;
    const t = bb.last;
    let ports = '';
    const portOf: number[] = [];
    if (t !== null && t.isTerminator()) {
      if (t.op === Opcode.Br && t.ops.length === 3) ports = '|{<s0>T|<s1>F}';
      else if (t.op === Opcode.Switch) {
        const parts = ['<s0>def'];
        for (let k = 0; k < t.numCases; k++) {
          const cv = t.caseValue(k);
          parts.push(`<s${k + 1}>${recordText(cv instanceof ConstantInt ? String(cv.value) : '?')}`);
        }
        ports = '|{' + parts.join('|') + '}';
      }
      if (ports !== '') for (let s = 0; s < t.numSuccessors(); s++) portOf.push(s);
    }
    let label: string;
    if (withInsts) {
      const lines = [recordText(`${names[id]}:`)];
      for (let i = bb.first; i !== null; i = i.next) {
        let text: string;
        try {
          text = printInstruction(i);
        } catch {
          text = i.opcodeName;
        }
        lines.push(recordText('  ' + text));
      }
      label = `{${lines.join('\\l')}\\l${ports}}`;
    } else {
      label = ports === '' ? `{${recordText(names[id])}}` : `{${recordText(names[id])}${ports}}`;
    }
    nodes.set(id, `${indent}b${id} [shape=record,label="${label}"];`);
    if (t !== null && t.isTerminator()) {
      const ns = t.numSuccessors();
      for (let s = 0; s < ns; s++) {
        const target = t.successor(s);
        if (target.parent !== fn) continue;
        edges.push(`${indent}b${id}${ports !== '' ? `:s${s}` : ''} -> b${target.id};`);
      }
    }
  }
  return { nodes, edges };
}

function header(title: string): string[] {
  return [`digraph ${q(title)} {`, `  label=${q(title)};`, '  node [fontname="Courier"];'];
}

/** The CFG with instructions in the nodes, like `opt -passes=dot-cfg`. */
export function cfgToDot(fn: Function, opts: CfgNodeOptions = {}): string {
  const cfg = new CFG(fn);
  const names = blockNames(fn);
  const { nodes, edges } = cfgBody(fn, cfg, names, opts);
  return [...header(`CFG for '${fn.name}' function`), ...nodes.values(), ...edges, '}', ''].join('\n');
}

function treeToDot(title: string, tree: DominatorTree, names: string[], order: Int32Array, exitLabel: string | null): string {
  const lines = header(title);
  lines.push('  node [shape=box];');
  for (const id of order) if (tree.isReachable(id)) lines.push(`  b${id} [label=${q(names[id])}];`);
  if (exitLabel !== null) lines.push(`  b${tree.virtualRoot} [label=${q(exitLabel)}, style=dashed];`);
  for (let v = 0; v < tree.n; v++) {
    const p = tree.idom[v];
    if (p >= 0) lines.push(`  b${p} -> b${v};`);
  }
  lines.push('}', '');
  return lines.join('\n');
}

/** The dominator tree (unreachable blocks are not in it). */
export function domTreeToDot(fn: Function, tree?: DominatorTree): string {
  const cfg = tree?.cfg ?? new CFG(fn);
  const dt = tree ?? computeDominators(cfg);
  return treeToDot(`Dominator tree for '${fn.name}' function`, dt, blockNames(fn), cfg.order, null);
}

/** The post-dominator tree, rooted at the virtual exit. */
export function postDomTreeToDot(fn: Function): string {
  const cfg = new CFG(fn);
  const pdt = postDominators(cfg);
  return treeToDot(`Post-dominator tree for '${fn.name}' function`, pdt, blockNames(fn), cfg.order, '<<exit>>');
}

/** The CFG (block names only) plus a dashed red edge x -> y for every y in DF(x). */
export function frontierToDot(fn: Function, df?: DominanceFrontier): string {
  const frontier = df ?? frontierOfTree(computeDominators(fn));
  const cfg = frontier.tree.cfg ?? new CFG(fn);
  const names = blockNames(fn);
  const { nodes, edges } = cfgBody(fn, cfg, names, { instructions: false });
  const lines = [...header(`Dominance frontiers for '${fn.name}' function`), ...nodes.values(), ...edges];
  for (const x of cfg.order) {
    for (const y of frontier.get(x)) lines.push(`  b${x} -> b${y} [style=dashed, color=red, constraint=false];`);
  }
  lines.push('}', '');
  return lines.join('\n');
}

/**
 * The control-dependence graph (Cytron et al. 1991, §6; Ferrante, Ottenstein and Warren
 * 1987): an edge X -> Y when Y is control dependent on X (X's branch decides whether Y runs:
 * X ∈ RDF(Y)), with a node ENTRY for what always runs (the paper's Entry -> Exit edge makes
 * those blocks control dependent on Entry).
 */
export function cdgToDot(fn: Function): string {
  const cfg = new CFG(fn);
  const cd = controlDependence(cfg);
  const names = blockNames(fn);
  const lines = [...header(`Control dependence graph for '${fn.name}' function`), '  entry_ [shape=diamond, label="ENTRY"];'];
  for (const b of cfg.order) lines.push(`  b${b} [shape=record, label=${q(names[b])}];`);
  for (const y of cfg.order) {
    const deps = cd.dependsOn(y);
    if (deps.length === 0 && cfg.isReachable(y)) lines.push(`  entry_ -> b${y};`);
    for (const x of deps) lines.push(`  b${x} -> b${y};`);
  }
  lines.push('}', '');
  return lines.join('\n');
}

/** The CFG with every natural loop as a cluster (nested as the loops are); back edges bold. */
export function loopsToDot(fn: Function, info?: LoopInfo): string {
  const li = info ?? findLoops(fn);
  const cfg = li.cfg;
  const names = blockNames(fn);
  const { nodes, edges } = cfgBody(fn, cfg, names, { instructions: false }, '');
  const lines = header(`Loops of '${fn.name}' function`);
  // Emit clusters in loop-tree preorder with an explicit stack; each block goes into its
  // innermost loop's cluster.
  const own = new Map<number, number[]>();
  for (const id of cfg.order) {
    const l = li.innermost[id];
    if (l >= 0) {
      let a = own.get(l);
      if (a === undefined) own.set(l, (a = []));
      a.push(id);
    } else lines.push('  ' + nodes.get(id)!);
  }
  type Item = { loop: Loop; close: boolean };
  const stack: Item[] = [];
  for (let i = li.topLevel.length - 1; i >= 0; i--) stack.push({ loop: li.topLevel[i], close: false });
  while (stack.length > 0) {
    const it = stack.pop()!;
    const pad = '  '.repeat(it.loop.depth);
    if (it.close) {
      lines.push(`${pad}}`);
      continue;
    }
    const l = it.loop;
    lines.push(`${pad}subgraph cluster_loop${l.index} {`);
    lines.push(`${pad}  label=${q(`loop ${names[l.header]} (depth ${l.depth})`)}; style=rounded; color=blue;`);
    for (const id of own.get(l.index) ?? []) lines.push(`${pad}  ${nodes.get(id)!}`);
    stack.push({ loop: l, close: true });
    for (let i = l.subLoops.length - 1; i >= 0; i--) stack.push({ loop: l.subLoops[i], close: false });
  }
  for (const e of edges) {
    const m = /^b(\d+)(?::s\d+)? -> b(\d+);$/.exec(e);
    if (m !== null) {
      const u = Number(m[1]);
      const v = Number(m[2]);
      const l = li.loopFor(v);
      if (l !== null && l.header === v && l.contains(u)) {
        lines.push(`  ${e.slice(0, -1)} [style=bold, color=blue];`);
        continue;
      }
    }
    lines.push('  ' + e);
  }
  lines.push('}', '');
  return lines.join('\n');
}

/** The DOT text of one graph kind. */
export function functionToDot(fn: Function, kind: GraphKind): string {
  switch (kind) {
    case 'cfg':
      return cfgToDot(fn);
    case 'domtree':
      return domTreeToDot(fn);
    case 'postdomtree':
      return postDomTreeToDot(fn);
    case 'df':
      return frontierToDot(fn);
    case 'loops':
      return loopsToDot(fn);
    case 'cdg':
      return cdgToDot(fn);
    default:
      throw new Error(`unknown graph '${kind as string}' (expected ${GRAPH_KINDS.join(', ')})`);
  }
}
