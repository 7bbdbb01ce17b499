/**
 * The trace of SCCP (Wegman and Zadeck, "Constant Propagation with Conditional Branches",
 * TOPLAS 1991, §3.4): the lattice value of every SSA value (⊤ → constant → ⊥, only down),
 * the CFG edges as they become executable, and the two worklists — FlowWorkList of CFG
 * edges and SSAWorkList of values whose lattice value dropped — as sccp.ts runs them. The
 * solver calls these hooks only when its `tracer` is set; the function is not changed.
 * `--trace=sccp` (transforms/scalar/sccp-trace.ts) drives it.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Constant } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { type Value, ValueKind } from '../../ir/value.js';
import type { Tracer } from '../../analysis/trace.js';
import { printValue } from '../../text/printer.js';
import { functionSlots } from '../../text/slots.js';
import type { SCCPSolver } from './sccp-solver.js';

export class SCCPTracer {
  private readonly slots;
  /** The lattice as the trace has shown it: absent = ⊤, a string = constant, null = ⊥. */
  readonly shown = new Map<Instruction, string | null>();
  /** Executable edges in the order they became so (`from -> to`). */
  readonly edges: string[] = [];

  constructor(
    readonly t: Tracer,
    readonly fn: Function,
  ) {
    this.slots = functionSlots(fn);
  }

  value(v: Value): string {
    if (v.kind === ValueKind.Instruction || v.kind === ValueKind.Argument) {
      const s = this.slots.nameOf(v);
      return s !== undefined ? '%' + s : '(value)';
    }
    return printValue(v);
  }

  name(b: BasicBlock): string {
    return this.slots.nameOf(b) ?? '?';
  }

  private lat(i: Instruction): string {
    if (!this.shown.has(i)) return '⊤';
    const c = this.shown.get(i);
    return c === null ? '⊥' : (c as string);
  }

  start(): void {
    this.t.step('start', `SCCP on @${this.fn.name}: every value ⊤ (no information yet), no CFG edge executable, FlowWorkList and SSAWorkList empty`);
  }

  block(bb: BasicBlock): void {
    const b = this.name(bb);
    this.t.step('block', `  ${b} is executable: evaluate each of its instructions`, [b], { block: b });
  }

  edge(from: BasicBlock, to: BasicBlock): void {
    const f = this.name(from);
    const s = this.name(to);
    this.edges.push(`${f} -> ${s}`);
    this.t.step('edge', `  edge ${f} -> ${s} becomes executable: FlowWorkList += ${f} -> ${s}`, [f, s], { from: f, to: s });
  }

  popEdge(from: BasicBlock, to: BasicBlock, wasExecutable: boolean): void {
    const f = this.name(from);
    const s = this.name(to);
    this.t.step(
      'flow-pop',
      `FlowWorkList: take ${f} -> ${s}: ${wasExecutable ? `${s} already executable, re-evaluate only its phis` : `first edge into ${s}`}`,
      [s, f],
      { from: f, to: s, firstVisit: !wasExecutable },
    );
  }

  lattice(i: Instruction, c: Constant | null): void {
    const before = this.lat(i);
    const after = c === null ? '⊥' : printValue(c);
    this.shown.set(i, c === null ? null : after);
    const v = this.value(i);
    const b = i.parent !== null ? this.name(i.parent) : '';
    this.t.step('lattice', `  ${v}: ${before} -> ${after}${c === null ? ' (overdefined)' : ''}; SSAWorkList += ${v}`, b === '' ? [] : [b], { value: v, from: before, to: after });
  }

  popValue(v: Instruction, solver: SCCPSolver): void {
    const users: string[] = [];
    const blocks: string[] = [];
    for (let u = v.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      if (user.kind !== ValueKind.Instruction || user.parent === null || user.parent.parent !== this.fn) continue;
      if (!solver.executable[user.parent.id]) continue;
      users.push(user.hasResult() ? this.value(user) : `the ${user.opcodeName} of ${this.name(user.parent)}`);
      blocks.push(this.name(user.parent));
    }
    this.t.step('ssa-pop', `SSAWorkList: take ${this.value(v)} (${this.lat(v)}): re-evaluate its uses in executable blocks${users.length > 0 ? `: ${users.join(', ')}` : ' (none)'}`, blocks, {
      value: this.value(v),
      users,
    });
  }

  fixpoint(): void {
    this.t.step('fixpoint', 'both worklists are empty');
  }

  result(solver: SCCPSolver): void {
    const lattice: Record<string, string> = {};
    const parts: string[] = [];
    const dead: string[] = [];
    for (let b = this.fn.firstBlock; b !== null; b = b.next) {
      if (!solver.executable[b.id]) dead.push(this.name(b));
      for (let i = b.first; i !== null; i = i.next) {
        if (!i.hasResult()) continue;
        const c = solver.constantOf(i);
        const s = c !== null ? printValue(c) : this.shown.has(i) ? '⊥' : '⊤';
        lattice[this.value(i)] = s;
        parts.push(`${this.value(i)} = ${s}`);
      }
    }
    this.t.step('result', `result: ${parts.join(', ')}; executable edges: ${this.edges.join(', ') || 'none'}; never executable: ${dead.join(', ') || 'none'}`, dead, {
      lattice,
      edges: [...this.edges],
      unreachable: dead,
    });
  }
}

