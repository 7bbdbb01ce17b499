/**
 * Debug records through block merging and loop rotation (#22), against opt-19 as the oracle: clang-19 -g
 * programs after opt-19's mem2reg, then `simplifycfg` by opt-19 and by us; both outputs
 * printed through `opt-19 -S` (which numbers metadata its own way) must have the same
 * `#dbg_value` records in the same order. Merging a block into its predecessor moves the
 * block's records with its code and keeps the records that stood before the predecessor's
 * branch (they were lost, with every record of the merged block, before); records made
 * redundant by the merge go, as LLVM's RemoveRedundantDbgInstrs removes them (unit cases).
 * Loop rotation copies the header's records into the preheader (remapped, minus those the
 * preheader already has) and describes its new phis (LLVM's insertDebugValuesForPHIs).
 * A global deleted while a record names it (a constant that replaced an alloca) leaves the
 * record `poison`, as LLVM's ValueAsMetadata::handleDeletion does.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { optimizeText } from '../../src/driver/streaming.js';
import type { MDNode } from '../../src/ir/metadata.js';
import { parseModule } from '../../src/text/parser.js';
import { removeRedundantDbgRecords } from '../../src/transforms/utils/redundant-dbg-records.js';
import { clangFileToLL, hasLlvm, llvmAsError, OPT, runTool } from '../helpers/llvm.js';

const DIR = 'test/text/fixtures/debug-records';

function records(text: string): string[] {
  const r = runTool(OPT, ['-S', '-', '-o', '-'], { input: text });
  if (r.status !== 0) throw new Error(`opt-19 -S refused the text:\n${r.stderr.toString()}`);
  return r.stdout
    .toString()
    .split('\n')
    .filter((l) => l.includes('#dbg_'))
    .map((l) => l.trim());
}

// Reason for runIf: needs clang-19 and opt-19 (the oracle); without them these skip.
describe.runIf(hasLlvm())('block merging keeps the debug records opt-19 keeps', () => {
  for (const c of ['loop-select.c', 'diamond-scope.c']) {
    it(`${c}: simplifycfg after mem2reg`, () => {
      const ll = clangFileToLL(`${DIR}/${c}`, 'O0', ['-g']);
      const m2r = runTool(OPT, ['-S', '-passes=mem2reg', ll, '-o', '-']);
      expect(m2r.status).toBe(0);
      const input = m2r.stdout.toString();
      const ours = optimizeText(input, c, { pipeline: 'simplifycfg' }).output;
      expect(ours, 'the verifier accepts the output').not.toBeNull();
      expect(llvmAsError(ours!)).toBeNull();
      const theirs = runTool(OPT, ['-S', '-passes=simplifycfg', '-', '-o', '-'], { input });
      expect(theirs.status).toBe(0);
      const want = records(theirs.stdout.toString());
      expect(want.length).toBeGreaterThan(4);
      expect(records(ours!)).toEqual(want);
    });
  }
});

/** Records with value names and metadata numbers blurred, sorted: rotation names its phis its own way. */
function blurred(text: string): string[] {
  return records(text)
    .map((l) => l.replace(/%[\w.]+/g, '%v').replace(/!\d+/g, '!n'))
    .sort();
}

// Reason for runIf: needs clang-19 and opt-19 (the oracle); without them this skips.
describe.runIf(hasLlvm())('loop rotation keeps the debug records opt-19 keeps', () => {
  it('loop-select.c: loop-rotate after mem2reg and simplifycfg', () => {
    const ll = clangFileToLL(`${DIR}/loop-select.c`, 'O0', ['-g']);
    const prep = runTool(OPT, ['-S', '-passes=mem2reg,simplifycfg', ll, '-o', '-']);
    expect(prep.status).toBe(0);
    const input = prep.stdout.toString();
    const ours = optimizeText(input, 'loop-select.c', { pipeline: 'loop-rotate' }).output;
    expect(ours, 'the verifier accepts the output').not.toBeNull();
    expect(llvmAsError(ours!)).toBeNull();
    const theirs = runTool(OPT, ['-S', '-passes=loop-rotate', '-', '-o', '-'], { input });
    expect(theirs.status).toBe(0);
    const want = blurred(theirs.stdout.toString());
    expect(want.length).toBeGreaterThanOrEqual(records(input).length);
    expect(blurred(ours!)).toEqual(want);
  });
});

// Reason for runIf: needs opt-19 (the oracle); without it this skips.
describe.runIf(hasLlvm())('a deleted global leaves its debug records poison, as opt-19 does', () => {
  it('globaldce of a constant a #dbg_declare and a #dbg_value name', () => {
    const input = readFileSync(`${DIR}/deleted-global.ll`, 'utf8');
    const ours = optimizeText(input, 'deleted-global.ll', { pipeline: 'globaldce' }).output;
    expect(ours, 'the verifier accepts the output').not.toBeNull();
    expect(llvmAsError(ours!)).toBeNull();
    expect(ours).not.toContain('@k');
    const theirs = runTool(OPT, ['-S', '-passes=globaldce', `${DIR}/deleted-global.ll`, '-o', '-']);
    expect(theirs.status).toBe(0);
    expect(records(ours!)).toEqual(records(theirs.stdout.toString()));
  });
});

const HEAD = `define void @f(i32 %a, i32 %b) !dbg !4 {
`;
const TAIL = `  ret void, !dbg !9
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, unit: !0, spFlags: DISPFlagDefinition)
!5 = !DISubroutineType(types: !{null})
!6 = !DILocalVariable(name: "x", scope: !4, file: !1, line: 1, type: !8)
!7 = !DILocalVariable(name: "y", scope: !4, file: !1, line: 1, type: !8)
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocation(line: 1, scope: !4)
`;

/** The records left, as `variable = value expression`. */
function cleaned(body: string): string[] {
  const m = parseModule(HEAD + body + TAIL, 't.ll');
  const out: string[] = [];
  for (const b of m.functions[0].blocks()) {
    removeRedundantDbgRecords(b);
    for (const i of b.instructions()) {
      for (const r of i.dbgRecords ?? []) {
        const v = r.ops[1] as MDNode;
        const e = (r.ops[2] as MDNode).ops[0];
        out.push(`${(v.field('name') as string).replace(/"/g, '')} = %${r.value!.name}${e === '' ? '' : ` (${e as string})`}`);
      }
    }
  }
  return out;
}

describe('redundant debug records (LLVM RemoveRedundantDbgInstrs)', () => {
  it('backward scan: of two records of a variable on one instruction, the later wins', () => {
    expect(
      cleaned(`    #dbg_value(i32 %a, !6, !DIExpression(), !9)
    #dbg_value(i32 %b, !7, !DIExpression(), !9)
    #dbg_value(i32 %b, !6, !DIExpression(), !9)
`),
    ).toEqual(['y = %b', 'x = %b']);
  });

  it('forward scan: a record repeating the variable’s location goes; a change or a fragment stays', () => {
    expect(
      cleaned(`    #dbg_value(i32 %a, !6, !DIExpression(), !9)
  %c = add i32 %a, %b, !dbg !9
    #dbg_value(i32 %a, !6, !DIExpression(), !9)
    #dbg_value(i32 %a, !7, !DIExpression(), !9)
  %d = add i32 %c, 1, !dbg !9
    #dbg_value(i32 %a, !6, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !9)
  %e = add i32 %d, 1, !dbg !9
    #dbg_value(i32 %a, !6, !DIExpression(), !9)
`),
    ).toEqual(['x = %a', 'y = %a', 'x = %a (DW_OP_plus_uconst, 1, DW_OP_stack_value)', 'x = %a']);
  });
});
