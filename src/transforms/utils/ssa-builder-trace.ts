/**
 * The trace of Braun et al.'s SSA construction (CC 2013; ssa-builder.ts): writeVariable,
 * readVariable with its local hit or readVariableRecursive (a single predecessor: look
 * there; a join: a phi first — which breaks cycles — then its operands from every
 * predecessor; an unsealed block: an incomplete phi), sealBlock completing the incomplete
 * phis, and tryRemoveTrivialPhi with its re-examination of the phis that used a removed one.
 * The builder calls these hooks only when its `tracer` is set.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Instruction } from '../../ir/instruction.js';
import { type Value, ValueKind } from '../../ir/value.js';
import type { Tracer } from '../../analysis/trace.js';
import { printValue } from '../../text/printer.js';
import type { SSABuilder } from './ssa-builder.js';
import type { MarkerTrace } from './ssa-builder-marker.js';

export class BraunTracer {
  private readonly phiLabel = new Map<Instruction, string>();
  private readonly open = new Set<Instruction>();
  private depth = 0;
  /** Phis created, removed as trivial, kept (for tests and the summary). */
  created = 0;
  removed = 0;

  constructor(
    readonly t: Tracer,
    /** Names of values that existed before the construction (e.g. the input's `%5`). */
    readonly nameOf: (v: Value) => string | undefined = () => undefined,
    /** Names of blocks (default: their name, or `bb<id>`). */
    readonly blockNameOf: (b: BasicBlock) => string = (b) => (b.name !== '' ? b.name : `bb${b.id}`),
  ) {}

  /** The label this trace gave phi `v` (φ1(x@B), …), if it is one of the construction's. */
  labelOf(v: Value): string | undefined {
    return v.kind === ValueKind.Instruction ? this.phiLabel.get(v as Instruction) : undefined;
  }

  value(v: Value): string {
    if (v.kind === ValueKind.Instruction) {
      const l = this.phiLabel.get(v as Instruction);
      if (l !== undefined) return l;
    }
    if (v.kind === ValueKind.Instruction || v.kind === ValueKind.Argument) {
      const n = this.nameOf(v);
      if (n !== undefined) return n;
      if (v.name !== '') return '%' + v.name;
      return `(${(v as Instruction).opcodeName ?? 'value'})`;
    }
    return printValue(v);
  }

  private b(x: BasicBlock): string {
    return this.blockNameOf(x);
  }

  private pad(): string {
    return '  '.repeat(this.depth);
  }

  private label(phi: Instruction, ssa: SSABuilder, variable: number, block: BasicBlock): string {
    const l = `φ${++this.created}(${ssa.variableName(variable).replace(/\.$/, '')}@${this.b(block)})`;
    this.phiLabel.set(phi, l);
    return l;
  }

  /** The hooks of §3.3's marker lookup (ssa-builder-marker.ts), in this trace's words. */
  markerTrace(ssa: SSABuilder): MarkerTrace {
    const x = (v: number): string => ssa.variableName(v).replace(/\.$/, '');
    return {
      found: (v, b, d) => this.found(ssa, v, b, d),
      undef: (v, b) => this.undef(ssa, v, b),
      incomplete: (v, b, phi) => this.incomplete(ssa, v, b, phi),
      mark: (v, b, preds) => {
        const bn = this.b(b);
        const how = preds.length === 1 ? `its predecessor ${this.b(preds[0])}` : `its predecessors ${preds.map((p) => this.b(p)).join(', ')}`;
        this.t.step('mark', `${this.pad()}mark ${bn} and look for ${x(v)} in ${how} (no phi yet)`, [bn, ...preds.map((p) => this.b(p))], { variable: x(v), block: bn, preds: preds.map((p) => this.b(p)) });
        this.depth++;
      },
      cycle: (v, b, phi) => {
        const l = this.label(phi, ssa, v, b);
        this.t.step('cycle-phi', `${this.pad()}${this.b(b)} is marked: the lookup went round a cycle, phi ${l} breaks it`, [this.b(b)], { variable: x(v), block: this.b(b), phi: l });
      },
      unmark: (v, b, values, how, phi) => {
        this.depth = Math.max(0, this.depth - 1);
        const bn = this.b(b);
        const vs = values.map((u) => this.value(u));
        let text: string;
        if (how === 'same') text = `${bn} unmarked: every predecessor gives ${vs[0]}, no phi`;
        else if (how === 'cycle-phi') text = `${bn} unmarked: the cycle's phi ${this.value(phi!)} gets [${vs.join(', ')}]`;
        else text = `${bn} unmarked: the predecessors give different values [${vs.join(', ')}]: phi ${this.label(phi!, ssa, v, b)}`;
        this.t.step('unmark', this.pad() + text, [bn], { variable: x(v), block: bn, values: vs, decision: how, phi: phi === null ? null : this.value(phi) });
      },
    };
  }

  /** A driver (mem2reg-braun) starts filling `block`. */
  fill(block: BasicBlock): void {
    this.depth = 0;
    this.t.step('fill', `fill ${this.b(block)}`, [this.b(block)], { block: this.b(block) });
  }

  write(ssa: SSABuilder, variable: number, block: BasicBlock, value: Value): void {
    const x = ssa.variableName(variable).replace(/\.$/, '');
    this.t.step('write', `${this.pad()}writeVariable(${x}, ${this.b(block)}, ${this.value(value)})`, [this.b(block)], { variable: x, block: this.b(block), value: this.value(value) });
  }

  read(ssa: SSABuilder, variable: number, block: BasicBlock, local: Value | null): void {
    const x = ssa.variableName(variable).replace(/\.$/, '');
    const bn = this.b(block);
    if (local !== null) {
      this.t.step('read', `${this.pad()}readVariable(${x}, ${bn}) = ${this.value(local)} (local value numbering: defined in ${bn})`, [bn], { variable: x, block: bn, value: this.value(local), local: true });
    } else {
      this.t.step('read', `${this.pad()}readVariable(${x}, ${bn}): not defined in ${bn}, readVariableRecursive`, [bn], { variable: x, block: bn, local: false });
      this.depth++;
    }
  }

  readDone(ssa: SSABuilder, variable: number, block: BasicBlock, r: Value): void {
    this.depth = Math.max(0, this.depth - 1);
    const x = ssa.variableName(variable).replace(/\.$/, '');
    this.t.step('read-result', `${this.pad()}readVariable(${x}, ${this.b(block)}) = ${this.value(r)}`, [this.b(block)], { variable: x, block: this.b(block), value: this.value(r) });
  }

  found(ssa: SSABuilder, variable: number, block: BasicBlock, d: Value): void {
    const x = ssa.variableName(variable).replace(/\.$/, '');
    this.t.step('found', `${this.pad()}${this.b(block)} has ${x} = ${this.value(d)}`, [this.b(block)], { variable: x, block: this.b(block), value: this.value(d) });
  }

  single(ssa: SSABuilder, variable: number, block: BasicBlock, pred: BasicBlock): void {
    const x = ssa.variableName(variable).replace(/\.$/, '');
    this.t.step('single-pred', `${this.pad()}${this.b(block)} is sealed with one predecessor: look for ${x} in ${this.b(pred)}`, [this.b(block), this.b(pred)], { variable: x, block: this.b(block), pred: this.b(pred) });
  }

  undef(ssa: SSABuilder, variable: number, block: BasicBlock): void {
    const x = ssa.variableName(variable).replace(/\.$/, '');
    this.t.step('undef', `${this.pad()}${this.b(block)} has no predecessors: ${x} is undef`, [this.b(block)], { variable: x, block: this.b(block) });
  }

  incomplete(ssa: SSABuilder, variable: number, block: BasicBlock, phi: Instruction): void {
    const l = this.label(phi, ssa, variable, block);
    this.t.step('incomplete-phi', `${this.pad()}${this.b(block)} is not sealed: incomplete phi ${l}, completed when ${this.b(block)} is sealed`, [this.b(block)], { phi: l, block: this.b(block) });
  }

  join(ssa: SSABuilder, variable: number, block: BasicBlock, phi: Instruction, preds: readonly BasicBlock[]): void {
    const l = this.label(phi, ssa, variable, block);
    this.t.step(
      'phi',
      `${this.pad()}${this.b(block)} has ${preds.length} predecessors: phi ${l} first (it breaks cycles), then its operands from ${preds.map((p) => this.b(p)).join(', ')}`,
      [this.b(block), ...preds.map((p) => this.b(p))],
      { phi: l, block: this.b(block), preds: preds.map((p) => this.b(p)) },
    );
    this.open.add(phi);
    this.depth++;
  }

  operand(_ssa: SSABuilder, phi: Instruction, v: Value, pred: BasicBlock): void {
    this.t.step('operand', `${this.pad()}${this.value(phi)} gets [${this.value(v)}, ${this.b(pred)}]`, [this.b(pred)], { phi: this.value(phi), value: this.value(v), from: this.b(pred) });
  }

  seal(_ssa: SSABuilder, block: BasicBlock, incomplete: readonly Instruction[], preds: readonly BasicBlock[]): void {
    const bn = this.b(block);
    this.t.step(
      'seal',
      `${this.pad()}sealBlock(${bn}): predecessors ${preds.map((p) => this.b(p)).join(', ') || 'none'} all known${incomplete.length > 0 ? `; complete ${incomplete.map((p) => this.value(p)).join(', ')}` : ''}`,
      [bn],
      { block: bn, incomplete: incomplete.map((p) => this.value(p)) },
    );
    for (const p of incomplete) this.open.add(p);
    if (incomplete.length > 0) this.depth++;
  }

  private close(p: Instruction): void {
    if (this.open.delete(p)) this.depth = Math.max(0, this.depth - 1);
  }

  notTrivial(_ssa: SSABuilder, p: Instruction): void {
    this.close(p);
    const ops = p.ops.map((u) => this.value(u.value));
    this.t.step('keep', `${this.pad()}tryRemoveTrivialPhi(${this.value(p)}): operands [${ops.join(', ')}] merge two or more values: kept`, p.parent ? [this.b(p.parent)] : [], { phi: this.value(p), operands: ops });
  }

  trivial(_ssa: SSABuilder, p: Instruction, same: Value, byHook: boolean): void {
    this.close(p);
    this.removed++;
    const users: string[] = [];
    for (let u = p.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      if (user !== p && user.kind === ValueKind.Instruction && user.op !== undefined && this.phiLabel.has(user) && !users.includes(this.value(user))) users.push(this.value(user));
    }
    const ops = p.ops.map((u) => this.value(u.value));
    this.t.step(
      'trivial',
      `${this.pad()}tryRemoveTrivialPhi(${this.value(p)}): operands [${ops.join(', ')}] ${byHook ? 'fold' : 'are only itself and'} ${this.value(same)}: replaced by ${this.value(same)}${users.length > 0 ? `; re-examine its phi users ${users.join(', ')}` : ''}`,
      p.parent ? [this.b(p.parent)] : [],
      { phi: this.value(p), operands: ops, replacement: this.value(same), users },
    );
  }
}
