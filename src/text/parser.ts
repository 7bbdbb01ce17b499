/**
 * Parser for LLVM's textual IR (the subset C compilers produce), hand-written
 * recursive descent over the token stream of `Lexer`, in the shape of LLVM's LLParser.
 *
 * What it keeps: types, globals and their initializers, functions and every instruction
 * clang-19 and opt-19 print for C. What it keeps opaquely (as printed text, so output stays
 * faithful): attribute groups, parameter/return/function attributes, metadata nodes and
 * attachments, comdats, module asm. Legacy typed pointers (`i32*`) read as `ptr`.
 *
 * Metadata is read into the graph of ir/metadata.ts by metadata-parser.ts: numbered and
 * named metadata, attachments on instructions, functions and globals, metadata call
 * arguments and debug records (`#dbg_value(...)`, which attach to the next instruction).
 * Calls to the older `llvm.dbg.*` intrinsics become debug records, as opt-19 prints them.
 *
 * Invariants:
 *  - Unnamed values are numbered exactly as LLVM numbers them; an explicit `%N` must be
 *    the next number (as llvm-as requires). Numbered values get the empty name.
 *  - Forward references to locals are placeholders replaced (RAUW) at their definition;
 *    forward references to globals resolve through a pre-scan of top-level definitions,
 *    so constant initializers never hold placeholders.
 *  - Every error is a SourceError with file:line:col.
 *
 * The parser is a chain of classes, one file per part of the grammar (see parser-base.ts):
 * parser-types.ts, parser-values.ts, parser-operations.ts, parser-instructions.ts,
 * parser-functions.ts, parser-module.ts.
 */
import type { Module } from '../ir/module.js';
import type { ParseOptions } from './parser-base.js';
import { Parser } from './parser-module.js';

export type { ParseOptions } from './parser-base.js';

/** Parses LLVM textual IR into a Module. Throws SourceError on malformed input. */
export function parseModule(text: string, fileName = '<input>', opts: ParseOptions = {}): Module {
  return new Parser(text, fileName, opts).parseModule();
}
