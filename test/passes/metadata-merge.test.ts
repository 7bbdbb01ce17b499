/**
 * Metadata of instructions that become one (#22), against opt-19 as the oracle: the same
 * pass run by opt-19 and by ssakit on small inputs, both outputs printed through `opt-19 -S`
 * (which numbers metadata its own way, so equal modules give equal texts), must agree —
 * attachments included (TBAA of the least common type, united !range, !nonnull and
 * !noundef only where LLVM keeps them, alias scopes, merged locations). Every output is
 * verified (optimizeText verifies, and prints nothing when a pass broke the module) and
 * accepted by llvm-as-19. Debug records of deleted instructions are salvaged into
 * DIExpressions as opt-19 salvages them (same passes, same records), and our -O2 of clang
 * -g programs compiles with llc-19 to objects whose DWARF llvm-dwarfdump-19 --verify accepts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { optimizeText } from '../../src/driver/streaming.js';
import { MDNode } from '../../src/ir/metadata.js';
import { getDILocation } from '../../src/ir/metadata.js';
import { mergedLocation, mostGenericRange } from '../../src/transforms/utils/metadata-merge.js';
import { ConstantInt } from '../../src/ir/constants.js';
import { i32 } from '../../src/ir/types.js';
import { ValueAsMetadata } from '../../src/ir/metadata.js';
import { clangFileToLL, hasLlvm, hasTool, llvmAsError, OPT, runTool } from '../helpers/llvm.js';

const DIR = 'test/text/fixtures/metadata-merge';

/** opt-19 -S of a text, without comments and source_filename (ours has none). */
function normalise(text: string): string {
  const r = runTool(OPT, ['-S', '-', '-o', '-'], { input: text });
  if (r.status !== 0) throw new Error(`opt-19 -S refused the text:\n${r.stderr.toString()}`);
  return r.stdout
    .toString()
    .split('\n')
    .filter((l) => !l.startsWith(';') && !l.startsWith('source_filename'))
    .join('\n');
}

function ours(file: string, pass: string): string {
  const out = optimizeText(readFileSync(`${DIR}/${file}`, 'utf8'), file, { pipeline: pass }).output;
  expect(out, 'the verifier accepts the output').not.toBeNull();
  expect(llvmAsError(out!)).toBeNull();
  return out!;
}

function theirs(file: string, pass: string): string {
  const r = runTool(OPT, ['-S', `-passes=${pass}`, `${DIR}/${file}`, '-o', '-']);
  expect(r.status).toBe(0);
  return r.stdout.toString();
}

// Reason for runIf: needs opt-19 and llvm-as-19 (the oracle); without them these skip.
describe.runIf(hasLlvm())('combined instructions keep the metadata opt-19 keeps', () => {
  const cases: [string, string][] = [
    ['gvn1.ll', 'gvn'],
    ['gvn1.ll', 'early-cse'],
    ['gvn2.ll', 'gvn'],
    ['gvn2.ll', 'early-cse'],
    ['gvn3.ll', 'gvn'],
    ['gvn3.ll', 'early-cse'],
    ['gvn4.ll', 'early-cse'],
    // salvage of the debug records of deleted instructions
    ['salvage1.ll', 'dce'],
    ['salvage1.ll', 'adce'],
    ['salvage1.ll', 'instcombine'],
    ['salvage1.ll', 'early-cse'],
  ];
  for (const [file, pass] of cases) {
    it(`${pass} on ${file}: the same module as opt-19 -passes=${pass}`, () => {
      expect(normalise(ours(file, pass))).toBe(normalise(theirs(file, pass)));
    });
  }

  it('equal non-distinct tuples print as one node, numbered as opt-19 numbers them (LLVM uniques MDNodes by operands)', () => {
    const o = ours('unique-tuples.ll', '');
    expect(normalise(o)).toBe(normalise(readFileSync(`${DIR}/unique-tuples.ll`, 'utf8')));
    // the text itself, not only after opt-19's reading: no two definitions with one body
    const bodies = o.split('\n').filter((l) => /^!\d+ = /.test(l)).map((l) => l.slice(l.indexOf('=')));
    expect(new Set(bodies).size).toBe(bodies.length);
    expect(bodies.length).toBe(6);
  });

  it('two runtime-unrolled loops (our -O2): their loop IDs share one !{!"llvm.loop.unroll.disable"} node, as LLVM prints it once', () => {
    const ll = clangFileToLL(`${DIR}/two-loops.c`, 'O0', ['-g']);
    const out = optimizeText(readFileSync(ll, 'utf8'), ll, { pipeline: 'default<O2>' }).output!;
    expect(llvmAsError(out)).toBeNull();
    expect((out.match(/!llvm\.loop !\d+/g) ?? []).length).toBeGreaterThanOrEqual(2);
    expect((out.match(/^!\d+ = !\{!"llvm\.loop\.unroll\.disable"\}$/gm) ?? []).length).toBe(1);
  });

  it('licm promotion: the exit store and the preheader load carry the attachments opt-19 gives them', () => {
    const attachments = (text: string, re: RegExp): string => {
      const t = normalise(text);
      const line = t.split('\n').find((l) => re.test(l)) ?? '';
      // the attachment list, with each !N replaced by the node it names
      const defs = new Map(t.split('\n').filter((l) => /^!\d+ = /.test(l)).map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf('=') + 2)]));
      return (line.match(/, !\w+ !\d+/g) ?? []).map((a) => a.replace(/!\d+$/, (n) => defs.get(n) ?? n)).join('');
    };
    const o = ours('licm1.ll', 'licm');
    const t = theirs('licm1.ll', 'licm');
    const store = /^\s+store i32 %.*, ptr @g/;
    expect(attachments(o, store)).toBe(attachments(t, store));
    expect(attachments(o, store)).toContain('!DILocation(line: 3, scope: !3)');
    const load = /^\s+%.* = load i32, ptr @g/;
    expect(attachments(o, load)).toBe(attachments(t, load));
    expect(attachments(o, load)).toContain('!tbaa');
  });
});

// Reason for runIf: needs clang-19, llc-19 and llvm-dwarfdump-19 (the oracles of the DWARF we lead to).
describe.runIf(hasLlvm() && hasTool('llc-19') && hasTool('llvm-dwarfdump-19'))('salvaged records through -O2 make valid DWARF', () => {
  for (const name of ['sort_algos', 'struct_arrays']) {
    it(`${name}.c -g: our -O2 salvages records (DW_OP_ expressions appear), llc-19 compiles it, llvm-dwarfdump-19 --verify passes`, () => {
      const ll = clangFileToLL(`test/programs/${name}.c`, 'O0', ['-g']);
      const out = optimizeText(readFileSync(ll, 'utf8'), ll, { pipeline: 'default<O2>' }).output!;
      expect(out).not.toBeNull();
      expect(llvmAsError(out)).toBeNull();
      expect(out).toMatch(/#dbg_value\([^\n]*DW_OP_(plus_uconst|LLVM_arg|constu|LLVM_convert)/);
      const dir = mkdtempSync(join(tmpdir(), 'ssakit-salvage-'));
      try {
        writeFileSync(join(dir, 'o.ll'), out);
        const llc = runTool('llc-19', ['-O2', '-filetype=obj', join(dir, 'o.ll'), '-o', join(dir, 'o.o')]);
        expect(llc.stderr.toString()).toBe('');
        const v = runTool('llvm-dwarfdump-19', ['--verify', join(dir, 'o.o')]);
        expect(v.stdout.toString()).toContain('No errors.');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});

// Reason for runIf: needs clang-19 and opt-19 (the oracle of how many records the copies carry).
describe.runIf(hasLlvm())('copied code carries the debug records (unroll, as CloneBasicBlock)', () => {
  it('full unrolling of a 4-trip loop: the loop-local variable t has a #dbg_value in each copy, as after opt-19', () => {
    const c = clangFileToLL(`${DIR}/unroll-records.c`, 'O0', ['-g']);
    const prep = runTool(OPT, ['-S', '-passes=mem2reg,loop-simplify,loop-rotate,lcssa', c, '-o', '-']).stdout.toString();
    const out = optimizeText(prep, 'u.ll', { pipeline: 'loop-unroll' }).output!;
    expect(out).not.toBeNull();
    expect(llvmAsError(out)).toBeNull();
    const theirs = runTool(OPT, ['-S', '-passes=loop-unroll', '-', '-o', '-'], { input: prep }).stdout.toString();
    const perVariable = (text: string, name: string): number => {
      const id = new RegExp(`^(!\\d+) = !DILocalVariable\\(name: "${name}"`, 'm').exec(text)![1];
      return (text.match(new RegExp(`#dbg_value\\([^\\n]*, ${id}, `, 'g')) ?? []).length;
    };
    expect(perVariable(theirs, 't')).toBe(4);
    expect(perVariable(out, 't')).toBe(perVariable(theirs, 't'));
    expect(out).not.toMatch(/loop:|br i1 %cmp/);
  });
});

describe('merging by LLVM rules (expected values: the rules of getMergedLocation and getMostGenericRange)', () => {
  const file = new MDNode('DIFile', ['"a.c"', '"/"'], ['filename', 'directory']);
  const sp = new MDNode('DISubprogram', ['"f"', file], ['name', 'file'], true);
  const blk = new MDNode('DILexicalBlock', [sp, file, '4'], ['scope', 'file', 'line'], true);
  const sp2 = new MDNode('DISubprogram', ['"g"', file], ['name', 'file'], true);

  it('same line keeps the line, same column too; the common scope of two blocks is their parent', () => {
    const a = getDILocation(3, 5, sp);
    expect(mergedLocation(a, a)).toBe(a);
    expect(mergedLocation(a, getDILocation(3, 5, blk))).toBe(getDILocation(3, 5, sp));
    expect(mergedLocation(a, getDILocation(3, 9, sp))).toBe(getDILocation(3, 0, sp));
    expect(mergedLocation(a, getDILocation(4, 5, blk))).toBe(getDILocation(0, 0, sp));
    expect(mergedLocation(a, null)).toBeNull();
  });

  it('inlined copies of one line merge to it at their common call site; nothing in common gives line 0 in A`s scope', () => {
    const call = getDILocation(10, 2, sp2);
    const x = getDILocation(3, 5, sp, call);
    const y = getDILocation(3, 5, sp, getDILocation(11, 2, sp2));
    // the callee lines agree, the call sites do not: line 0 at the call sites' merge
    expect(mergedLocation(x, y)).toBe(getDILocation(3, 5, sp, getDILocation(0, 0, sp2)));
    expect(mergedLocation(getDILocation(3, 5, sp), getDILocation(7, 1, sp2))).toBe(getDILocation(0, 0, sp));
  });

  it('ranges: union, touching ranges joined, a full union dropped', () => {
    const r = (...v: number[]): MDNode => new MDNode('', v.map((n) => ValueAsMetadata.get(ConstantInt.get(i32, n))), null);
    const text = (n: MDNode | null): string => (n === null ? 'none' : n.ops.map((o) => ((o as ValueAsMetadata).value as ConstantInt).value.toString()).join(','));
    expect(text(mostGenericRange(r(0, 10), r(5, 20)))).toBe('0,20');
    expect(text(mostGenericRange(r(0, 10), r(10, 20)))).toBe('0,20');
    expect(text(mostGenericRange(r(0, 5), r(10, 20)))).toBe('0,5,10,20');
    expect(text(mostGenericRange(r(-5, 3), r(2, 10, 20, -10)))).toBe('-5,10,20,-10');
    expect(text(mostGenericRange(r(5, 0), r(0, 6)))).toBe('none');
  });
});
