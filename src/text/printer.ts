/**
 * Printer for LLVM's textual IR. The output is what `llvm-as-19` accepts and, where we
 * can, what `opt-19 -S` prints: the same numbering of unnamed values (see slots.ts), the
 * same spelling of flags, constants and attributes, `; preds = ...` comments on blocks.
 *
 * Invariant: `parseModule(printModule(m))` gives back a module that prints identically.
 *
 * The printer is a chain of classes (see printer-base.ts): printer-base.ts (operands,
 * constants), printer-instructions.ts, printer-module.ts (functions, globals, the module).
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import type { Module } from '../ir/module.js';
import { Type } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { MetadataNumberingMismatch } from './metadata-printer.js';
import type { PrintOptions } from './printer-base.js';
import { Printer } from './printer-module.js';

export type { PrintOptions } from './printer-base.js';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export function printModule(m: Module, opts: PrintOptions = {}): string {
  const parts = new Printer(m, opts).moduleParts();
  return parts.map((p) => (typeof p === 'string' ? p : decoder.decode(p))).join('\n') + '\n';
}

/**
 * The text of `printModule` as UTF-8 chunks, to be written one after another: functions
 * printed by `functionBytePrinter` are passed through as they are, never decoded into a
 * string and encoded again (on the 1M-instruction file that was 37 MB each way).
 */
export function printModuleBytes(m: Module, opts: PrintOptions = {}): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let text = '';
  for (const p of new Printer(m, opts).moduleParts()) {
    if (typeof p === 'string') {
      text += p + '\n';
      continue;
    }
    if (text !== '') chunks.push(encoder.encode(text));
    chunks.push(p);
    text = '\n';
  }
  if (text !== '') chunks.push(encoder.encode(text));
  return chunks;
}

/** Prints one function (with module context for global names). */
export function printFunction(fn: Function, opts: PrintOptions = {}): string {
  const m = fn.parent;
  const p = new Printer(m, opts);
  return p.function(fn);
}

/**
 * A printer of one function after another with the same module context: the text each
 * function has in `printModule`, without renumbering the module's globals every time.
 * The numbering of unnamed globals is taken when the printer is made.
 */
export function functionPrinter(m: Module, opts: PrintOptions = {}): (fn: Function) => string {
  const p = new Printer(m, opts);
  return (fn) => p.function(fn);
}

export { MetadataNumberingMismatch };

/** `functionPrinter`, giving each function's text as UTF-8 bytes (for `printModuleBytes`). */
export function functionBytePrinter(m: Module, opts: PrintOptions = {}): (fn: Function) => Uint8Array {
  const p = new Printer(m, opts);
  return (fn) => p.functionBytes(fn);
}

/** Prints one instruction as it appears in its function (`%3 = add i32 %1, 2`). */
export function printInstruction(inst: Instruction): string {
  const fn = inst.parent?.parent ?? null;
  const p = new Printer(fn?.parent ?? null, {});
  if (fn !== null) p.setFunction(fn);
  return p.instruction(inst);
}

/** Prints a value as an operand (`%x`, `42`, `@g`), with its type when `withType`. */
export function printValue(v: Value, withType = false): string {
  let fn: Function | null = null;
  if (v.kind === ValueKind.Instruction) fn = (v as Instruction).parent?.parent ?? null;
  else if (v.kind === ValueKind.BasicBlock) fn = (v as BasicBlock).parent;
  else if (v.kind === ValueKind.Argument) fn = (v as unknown as { parent: Function | null }).parent;
  const p = new Printer(fn?.parent ?? null, {});
  if (fn !== null) p.setFunction(fn);
  return withType ? p.typedOperand(v) : p.operand(v);
}

/** Prints the label of a block as referenced (`%entry`, `%5`). */
export function blockLabel(bb: BasicBlock): string {
  return printValue(bb);
}

/** A type as LLVM prints it (for callers that print types). */
export function printType(t: Type): string {
  return t.toString();
}
