/**
 * Metadata and debug info (#22), against LLVM as the oracle: clang-19 -g output of every
 * test program and of generated C, at -O0 and -O2, printed back by ssakit with no passes,
 *  - keeps every attachment (`!dbg`, `!tbaa`, `!llvm.loop`, …), debug record and node,
 *    numbered as clang numbered them (its metadata section is byte for byte clang's);
 *  - is accepted by llvm-as-19 and is the same module for opt-19 (`opt-19 -S` of ours equals
 *    `opt-19 -S` of clang's).
 * Then through passes: mem2reg turns declares into values as opt-19 does (the same records
 * per variable), and our -O2 keeps locations and is accepted by `opt-19 -passes=verify`.
 * Bad metadata is refused with file:line:col; deep chains need no deep recursion.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { optimizeText } from '../../src/driver/streaming.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { clangFileToLL, clangToLL, hasLlvm, listPrograms, LLVM_AS, LLVM_MISSING, llvmAsError, OPT, type OptLevel, runTool } from '../helpers/llvm.js';

const llvm = hasLlvm();
const programs = listPrograms('test/programs');

/**
 * Runs an LLVM tool asynchronously (the event loop keeps turning, so vitest's worker stays
 * responsive through the ~400 tool runs of this file): status, stdout and stderr.
 */
function toolAsync(cmd: string, args: string[], input: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args);
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('close', (status) => resolve({ status, stdout, stderr }));
    p.stdin.on('error', () => {});
    p.stdin.end(input);
  });
}

/** opt-19 -S of a text, without its ModuleID line. */
async function normalise(text: string): Promise<string> {
  const r = await toolAsync(OPT, ['-S', '-', '-o', '-'], text);
  if (r.status !== 0) throw new Error(`opt-19 -S refused the text:\n${r.stderr}`);
  return r.stdout.replace(/^; ModuleID = .*\n/, '');
}

/** The module's metadata section: named metadata and numbered nodes, as printed. */
function metadataSection(text: string): string {
  return text
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .join('\n');
}

/** Every attachment, debug record and metadata reference in the functions, in text order (values aside: their spelling is the printer's business). */
function references(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) if (!line.startsWith('!')) out.push(...(line.match(/#dbg_\w+|![\w.]+ !\d+|!\d+/g) ?? []));
  return out;
}

async function checkRoundTrip(text: string, name: string): Promise<void> {
  const ours = printModule(parseModule(text, name));
  expect(metadataSection(ours)).toBe(metadataSection(text));
  expect(references(ours)).toEqual(references(text));
  const as = await toolAsync(LLVM_AS, ['-', '-o', '/dev/null'], ours);
  expect(as.stderr).toBe('');
  const [a, b] = await Promise.all([normalise(ours), normalise(text)]);
  expect(a).toBe(b);
}

// Reason for runIf: needs clang-19/opt-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(llvm)('clang-19 -g output prints back with all its metadata', () => {
  for (const level of ['O0', 'O2'] as OptLevel[]) {
    for (const p of programs) {
      it(`${p.name} -g -${level}`, async () => {
        const ll = clangFileToLL(p.path, level, ['-g']);
        await checkRoundTrip(readFileSync(ll, 'utf8'), ll);
      });
    }
  }
  for (const seed of [101, 202, 303, 404]) {
    for (const level of ['O0', 'O2'] as OptLevel[]) {
      it(`generated C, seed ${seed}, -g -${level}`, async () => {
        const ll = clangToLL(generateCProgram(seed), level, ['-g'], `gen-meta-${seed}`);
        await checkRoundTrip(readFileSync(ll, 'utf8'), ll);
      });
    }
  }
});

// Reason for runIf: needs clang-19/opt-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(llvm)('metadata through passes', () => {
  /** `#dbg_value` records per variable name, as a sorted list. */
  function valuesPerVariable(text: string): string[] {
    const names = new Map<string, string>();
    for (const m of text.matchAll(/^(!\d+) = !DILocalVariable\(name: "([^"]*)"/gm)) names.set(m[1], m[2]);
    const out: string[] = [];
    for (const m of text.matchAll(/#dbg_value\(.*?, (!\d+), !DIExpression/g)) out.push(names.get(m[1]) ?? '?');
    return out.sort();
  }

  for (const name of ['recursion', 'bst', 'strings', 'sort_algos', 'hash_table', 'matrix2d']) {
    it(`mem2reg on ${name}.c -g: the #dbg_value records opt-19 makes, no declare of a promoted alloca`, () => {
      const ll = clangFileToLL(`test/programs/${name}.c`, 'O0', ['-g']);
      const text = readFileSync(ll, 'utf8');
      const ours = optimizeText(text, ll, { pipeline: 'mem2reg' }).output!;
      const r = runTool(OPT, ['-S', '-passes=mem2reg', ll, '-o', '-']);
      const theirs = r.stdout.toString();
      expect(valuesPerVariable(ours)).toEqual(valuesPerVariable(theirs));
      expect(ours.match(/#dbg_declare/g)?.length ?? 0).toBe(theirs.match(/#dbg_declare/g)?.length ?? 0);
      expect(ours).toMatch(/!DILocation\(line: 0, scope: !\d+\)/); // LLVM's location of a promoted variable's values
      expect(llvmAsError(ours)).toBeNull();
    });
  }

  for (const p of programs.slice(0, 12)) {
    it(`-O2 of ${p.name} -g -O0: verified by opt-19, locations kept`, () => {
      const ll = clangFileToLL(p.path, 'O0', ['-g']);
      const ours = optimizeText(readFileSync(ll, 'utf8'), ll, { pipeline: 'default<O2>' }).output!;
      const v = runTool(OPT, ['-passes=verify', '-S', '-', '-o', '/dev/null'], { input: ours });
      expect(v.stderr).toBe('');
      expect(v.status).toBe(0);
      // every instruction of a function with a DISubprogram that clang located keeps a location
      const located = ours.match(/, !dbg !\d+/g)?.length ?? 0;
      expect(located).toBeGreaterThan(0);
    });
  }
});

// Reason for runIf: needs clang-19 to make the -g IR (the line of the faulting store is the source's own, line 5).
describe.runIf(llvm)('runtime errors name the source line when the IR carries !dbg', () => {
  it('an out-of-bounds store in C compiled with -g: file:line:col of the store, then the IR', async () => {
    const { runModule, InterpError } = await import('../../src/interp/index.js');
    const src = 'int a[4];\nint main(void) {\n  int i = 0;\n  while (i < 10) {\n    a[i] = i;\n    i++;\n  }\n  return a[0];\n}\n';
    const ll = clangToLL(src, 'O0', ['-g'], 'oob');
    let err: unknown = null;
    try {
      runModule(parseModule(readFileSync(ll, 'utf8'), ll));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InterpError);
    // clang names the file it compiled; the store `a[i] = i` is line 5, its `=` column 10
    expect((err as Error).message).toMatch(/out of bounds of global @a .* at [^ ]*\.c:5:10, in @main, block %\d+: store i32/);
  });
});

if (!llvm) {
  // Reason for skip: needs clang-19/llvm-19 as the oracles (apt-get install clang-19 llvm-19); .ci/run installs them, and the skipped entry names what is missing.
  it.skip(`LLVM tools are missing: ${LLVM_MISSING}`, () => {});
}

describe('metadata forms', () => {
  it('reads calls to llvm.dbg.* as the debug records opt-19 prints for them (expected text: opt-19 -S of the input)', () => {
    const input = `define i32 @f(i32 %x) !dbg !6 {
entry:
  %x.addr = alloca i32, align 4
  call void @llvm.dbg.declare(metadata ptr %x.addr, metadata !9, metadata !DIExpression()), !dbg !10
  store i32 %x, ptr %x.addr, align 4
  call void @llvm.dbg.value(metadata i32 %x, metadata !9, metadata !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value)), !dbg !10
  call void @llvm.dbg.label(metadata !11), !dbg !10
  %v = load i32, ptr %x.addr, align 4, !dbg !10
  ret i32 %v, !dbg !10
}
declare void @llvm.dbg.declare(metadata, metadata, metadata)
declare void @llvm.dbg.value(metadata, metadata, metadata)
declare void @llvm.dbg.label(metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/tmp")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!6 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !7, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!7 = !DISubroutineType(types: !8)
!8 = !{null}
!9 = !DILocalVariable(name: "x", arg: 1, scope: !6, file: !1, line: 1, type: !12)
!10 = !DILocation(line: 1, column: 3, scope: !6)
!11 = !DILabel(scope: !6, name: "L", file: !1, line: 2)
!12 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
`;
    // opt-19 -S old.ll, without its ModuleID and source_filename lines
    const expected = `
define i32 @f(i32 %x) !dbg !4 {
entry:
  %x.addr = alloca i32, align 4
    #dbg_declare(ptr %x.addr, !7, !DIExpression(), !9)
  store i32 %x, ptr %x.addr, align 4
    #dbg_value(i32 %x, !7, !DIExpression(DW_OP_plus_uconst, 1, DW_OP_stack_value), !9)
    #dbg_label(!10, !9)
  %v = load i32, ptr %x.addr, align 4, !dbg !9
  ret i32 %v, !dbg !9
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/tmp")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !DILocalVariable(name: "x", arg: 1, scope: !4, file: !1, line: 1, type: !8)
!8 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!9 = !DILocation(line: 1, column: 3, scope: !4)
!10 = !DILabel(scope: !4, name: "L", file: !1, line: 2)
`;
    expect(printModule(parseModule(input, 'old.ll'))).toBe(expected);
  });

  it('renumbers as LLVM does: unreachable nodes go, attachments print in kind order', () => {
    // expected: what opt-19 -S prints for this input
    const input = `define void @f(ptr %p) {
  %v = load i32, ptr %p, !range !5, !tbaa !3, !noundef !2
  ret void
}
!3 = !{!4, !4, i64 0}
!4 = !{!"int", !6}
!6 = !{!"tbaa root"}
!5 = !{i32 0, i32 10}
!2 = !{}
!9 = !{!"unused"}
`;
    const out = printModule(parseModule(input, 't.ll'));
    expect(out).toContain('%v = load i32, ptr %p, !tbaa !0, !range !3, !noundef !4');
    expect(out.slice(out.indexOf('!0 ='))).toBe(`!0 = !{!1, !1, i64 0}
!1 = !{!"int", !2}
!2 = !{!"tbaa root"}
!3 = !{i32 0, i32 10}
!4 = !{}
`);
  });

  it('a speculated instruction loses its location and UB-implying metadata (expected: opt-19 -passes=simplifycfg of the input)', () => {
    const input = `define i32 @f(i32 %a, i1 %c) !dbg !3 {
entry:
  br i1 %c, label %then, label %join, !dbg !7

then:
  %v = add i32 %a, 7, !dbg !7, !annotation !13, !foo !12
  br label %join, !dbg !7

join:
  %x = phi i32 [ %v, %then ], [ 0, %entry ]
  ret i32 %x, !dbg !7
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DISubroutineType(types: !5)
!5 = !{null}
!7 = !DILocation(line: 3, column: 5, scope: !3)
!12 = !{}
!13 = !{!"note"}
`;
    const out = optimizeText(input, 'spec.ll', { pipeline: 'simplifycfg' }).output!;
    expect(out).toContain('  %v = add i32 %a, 7, !annotation !6\n');
    expect(out).toContain('!6 = !{!"note"}');
    expect(out).not.toContain('!foo');
  });

  it('refuses bad metadata with file:line:col, as llvm-as does', () => {
    const err = (t: string): string => {
      try {
        parseModule(t, 'bad.ll');
      } catch (e) {
        return String((e as Error).message);
      }
      return 'accepted';
    };
    expect(err('define void @f() {\n  ret void, !dbg !7\n}\n')).toMatch(/^bad\.ll:2:18: error: use of undefined metadata '!7'/);
    expect(err('!0 = !DILocation(line: 1, colum: 2, scope: !0)\n')).toMatch(/^bad\.ll:1:27: error: invalid field 'colum'/);
    expect(err('!0 = !DILocation(line: 1)\n')).toMatch(/^bad\.ll:1:25: error: missing required field 'scope'/);
    expect(err('!0 = !DIFoo(x: 1)\n')).toMatch(/^bad\.ll:1:6: error: expected metadata type/);
    expect(err('!0 = !{}\n!0 = !{}\n')).toMatch(/^bad\.ll:2:1: error: Metadata id is already used/);
    expect(err('define void @f() {\n  #dbg_value(i32 0, !1)\n  ret void\n}\n')).toMatch(/^bad\.ll:2:\d+: error: expected ','/);
  });

  it('a 30,000-deep chain of inlined locations parses and prints without deep recursion', () => {
    // deeper than recursion could go (V8's default stack holds ~10k frames of a walk)
    const n = 30_000;
    const lines = ['define void @f() !dbg !1 {', '  ret void, !dbg !' + (n + 1), '}', '!llvm.dbg.cu = !{!0}'];
    lines.push('!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !2, emissionKind: FullDebug)');
    lines.push('!1 = distinct !DISubprogram(name: "f", scope: !2, file: !2, line: 1, spFlags: DISPFlagDefinition, unit: !0)');
    lines.push('!2 = !DIFile(filename: "f.c", directory: "/tmp")');
    // !k = location inlined at !(k-1), down to !3
    lines.push('!3 = distinct !DILocation(line: 1, scope: !1)');
    for (let k = 4; k <= n + 1; k++) lines.push(`!${k} = distinct !DILocation(line: ${k}, scope: !1, inlinedAt: !${k - 1})`);
    const out = printModule(parseModule(lines.join('\n') + '\n', 'deep.ll'));
    // LLVM's preorder numbering: named metadata (the unit, its file), the subprogram, then the chain from its head
    expect(out).toContain('define void @f() !dbg !2 {');
    expect(out).toContain('ret void, !dbg !3');
    expect(out).toContain(`!3 = distinct !DILocation(line: ${n + 1}, scope: !2, inlinedAt: !4)`);
    expect(out).toContain(`!${n + 1} = distinct !DILocation(line: 1, scope: !2)`);
    expect(out.split('\n').filter((l) => l.startsWith('!')).length).toBe(n + 3);
  });
});
