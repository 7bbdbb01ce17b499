/**
 * Structure-aware mutation of LLVM text (.ll) and SysY source (.sy) for the bad-input fuzz
 * suite (test/fuzz/bad-input.test.ts): the edits a user's typo, a truncated file or a
 * half-edited test makes, chosen so most mutants stay close to valid (so they exercise the
 * parser's and verifier's rules, not only the lexer's first error).
 *
 * Edits on lines (delete, duplicate, swap, truncate), on tokens (replace a token by another
 * of the same file or a word LLVM knows, delete one, insert one), on types (i32 <-> i64, ptr,
 * float), on names (an undefined %x / @x / !N), on numbers (alignments, -0, huge values,
 * bad radix), on attributes and metadata, plus random bytes and nested constant expressions.
 *
 * Invariants: deterministic for a seed (Rng, no Math.random); each mutant applies 1–3 edits;
 * the text returned is always a string (never throws).
 */
import { Rng } from './rng.js';

/** Words worth trying where a token was: keywords, types, attributes, flags LLParser knows. */
const LL_WORDS = [
  'i1', 'i8', 'i32', 'i64', 'i128', 'i99999999', 'ptr', 'float', 'double', 'void', 'label', 'metadata', 'x86_fp80',
  'align', 'align 0', 'align 3', 'align -0', 'align 4294967296', 'noundef', 'nonnull', 'nsw', 'nuw', 'exact', 'inbounds',
  'dso_local', 'local_unnamed_addr', 'local_unn amed_addr', 'unnamed_addr', 'internal', 'private', 'external', 'weak',
  'global', 'constant', 'define', 'declare', 'poison', 'undef', 'null', 'zeroinitializer', 'true', 'false',
  'add', 'sub', 'icmp', 'eq', 'slt', 'br', 'ret', 'phi', 'call', 'load', 'store', 'alloca', 'getelementptr', 'select',
  'to', 'x', '#0', '#99', '!0', '!999', '!{}', '!{ptr 7}', '!"s"', 'range(i32 0, 256)', 'range(i32 -32768, 0xK1234)',
  'range(i99999999 0, 256)', 'range(i32 5, 5)', 'allocsize(0)', 'allocsize(7)', 'allocsize(0, 1)', 'memory(none)',
  'memory(argmem: readwrite)', 'memory(bogus)', 'nocapture', 'readonly', 'writeonly', 'noalias', 'sret(i32)',
  'byval(i32)', 'dereferenceable(8)', 'dereferenceable(-1)', 'nofpclass(nan)', 'uwtable', 'nounwind', 'norecurse',
  'mustprogress', '"frame-pointer"="all"', 'section ".x"', 'comdat', 'tail', 'musttail', 'fast', 'nnan',
  ',', '(', ')', '[', ']', '{', '}', '<', '>', '=', '*', '...', '%0', '%1', '%nope', '@nope', '@0', '0', '1', '-1',
  '4294967296', '0x7FF8000000000000', '1.5', '1e400', 'c"ab\\00"', 'add (i64 1, i64 1)', 'add (i256 add (i64 1, i64 1), i64 1)',
];

const SY_WORDS = [
  'int', 'float', 'void', 'const', 'if', 'else', 'while', 'break', 'continue', 'return', 'main', 'getint', 'putint',
  '(', ')', '[', ']', '{', '}', ';', ',', '=', '==', '!=', '<', '>', '+', '-', '*', '/', '%', '!', '&&', '||',
  '0', '1', '2147483647', '2147483648', '0x', '0x1p3', '1e39', '1.5', 'a', 'x', 'n', '"s"', '/*', '*/', '//',
  '[100000][100000]', '[0]', '[-1]',
];

const TOKEN = /"(?:[^"\\\n]|\\.)*"|[%@!#$]?[-a-zA-Z$._0-9]+|\.\.\.|[^\s]/g;

function tokens(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) out.push({ start: m.index, end: m.index + m[0].length });
  return out;
}

function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.below(xs.length)];
}

function lineEdit(rng: Rng, text: string): string {
  const lines = text.split('\n');
  if (lines.length < 2) return text;
  const a = rng.below(lines.length);
  const b = rng.below(lines.length);
  switch (rng.below(4)) {
    case 0:
      lines.splice(a, 1);
      break;
    case 1:
      lines.splice(a, 0, lines[b]);
      break;
    case 2:
      [lines[a], lines[b]] = [lines[b], lines[a]];
      break;
    default:
      return lines.slice(0, a).join('\n') + '\n' + lines[a].slice(0, rng.below(lines[a].length + 1));
  }
  return lines.join('\n');
}

function tokenEdit(rng: Rng, text: string, words: readonly string[]): string {
  const toks = tokens(text);
  if (toks.length === 0) return text + pick(rng, words);
  const t = pick(rng, toks);
  switch (rng.below(4)) {
    case 0: {
      // another token of the same file: the most plausible typo
      const o = pick(rng, toks);
      return text.slice(0, t.start) + text.slice(o.start, o.end) + text.slice(t.end);
    }
    case 1:
      return text.slice(0, t.start) + pick(rng, words) + text.slice(t.end);
    case 2:
      return text.slice(0, t.start) + text.slice(t.end);
    default:
      return text.slice(0, t.end) + ' ' + pick(rng, words) + text.slice(t.end);
  }
}

/** LLVM-specific edits: types, names, numbers, constant expressions, stray tokens. */
function llEdit(rng: Rng, text: string): string {
  switch (rng.below(7)) {
    case 0: {
      // change one type word
      const types = ['i1', 'i8', 'i16', 'i32', 'i64', 'ptr', 'float', 'double'];
      const re = /\b(i1|i8|i16|i32|i64|ptr|float|double)\b/g;
      const hits = [...text.matchAll(re)];
      if (hits.length === 0) return text;
      const h = pick(rng, hits);
      return text.slice(0, h.index) + pick(rng, types) + text.slice(h.index! + h[0].length);
    }
    case 1: {
      // an undefined or misspelt name
      const hits = [...text.matchAll(/[%@!][-a-zA-Z$._0-9]+/g)];
      if (hits.length === 0) return text;
      const h = pick(rng, hits);
      return text.slice(0, h.index! + 1) + pick(rng, ['nope', '999', h[0].slice(1) + 'x', '0']) + text.slice(h.index! + h[0].length);
    }
    case 2: {
      // a number changed
      const hits = [...text.matchAll(/\b[0-9]+\b/g)];
      if (hits.length === 0) return text;
      const h = pick(rng, hits);
      return text.slice(0, h.index) + pick(rng, ['0', '-0', '3', '-1', '4294967296', '18446744073709551616', '0xK1', '1e9', '65536']) + text.slice(h.index! + h[0].length);
    }
    case 3: {
      // a stray token at the end of an instruction line
      const lines = text.split('\n');
      const k = rng.below(lines.length);
      lines[k] = lines[k] + ' ' + pick(rng, ['poison', '1', ',', 'i32', '%0', ', align 4', ', !dbg !0', ', !nope !0']);
      return lines.join('\n');
    }
    case 4: {
      // a nested constant expression where a constant operand was
      const hits = [...text.matchAll(/\bi64 ([0-9]+)\b/g)];
      if (hits.length === 0) return text;
      const h = pick(rng, hits);
      const depth = pick(rng, [2, 50, 3000]);
      const e = 'add (i64 '.repeat(depth) + h[1] + ', i64 1)'.repeat(depth);
      return text.slice(0, h.index! + 4) + e + text.slice(h.index! + h[0].length);
    }
    case 5: {
      // a metadata line, attribute group or module flag made odd
      const extra = pick(rng, [
        '!0 = !{}\n!0 = !{}', '!5 = !{!6}', '!7 = !{ptr 7}', '!llvm.module.flags = !{!8}\n!8 = !{i32 9, !"x", i32 1}',
        '!llvm.module.flags = !{!8}\n!8 = !{i32 1, !"x"}', 'attributes #7 = { nounwind', 'attributes #7 = { bogus }',
        'target datalayout = "i99999999:64"', 'target datalayout = "e-m:e-i64:64"', 'target datalayout = "q"',
        'target triple = "x86_64-pc-linux-gnu"', '!named = !{!9}', '!9 = distinct !{!9}',
      ]);
      return rng.chance(0.5) ? extra + '\n' + text : text + '\n' + extra + '\n';
    }
    default: {
      // random bytes
      const k = rng.below(text.length + 1);
      let s = '';
      const n = rng.range(1, 4);
      for (let j = 0; j < n; j++) s += String.fromCharCode(pick(rng, [0, 7, 9, 34, 92, 127, 0xff, 0x2028, rng.range(32, 126)]));
      return text.slice(0, k) + s + text.slice(k);
    }
  }
}

/** A mutant of LLVM text: 1–3 edits. */
export function mutateLL(text: string, seed: number): string {
  const rng = new Rng(seed);
  const n = rng.range(1, 3);
  let t = text;
  for (let k = 0; k < n; k++) {
    const r = rng.below(10);
    t = r < 3 ? lineEdit(rng, t) : r < 6 ? tokenEdit(rng, t, LL_WORDS) : llEdit(rng, t);
  }
  return t;
}

/** A mutant of SysY source: 1–3 edits. */
export function mutateSysY(text: string, seed: number): string {
  const rng = new Rng(seed);
  const n = rng.range(1, 3);
  let t = text;
  for (let k = 0; k < n; k++) {
    const r = rng.below(10);
    if (r < 3) t = lineEdit(rng, t);
    else if (r < 9) t = tokenEdit(rng, t, SY_WORDS);
    else {
      const k2 = rng.below(t.length + 1);
      t = t.slice(0, k2) + pick(rng, ['\0', '\\', '"', '\u00ff', '@', '`', '#', '$']) + t.slice(k2);
    }
  }
  return t;
}
