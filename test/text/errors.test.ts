/**
 * Malformed input gets a located error (file:line:col) — never another exception, a
 * hang, or a silently wrong module. Exact messages for the common mistakes, and a
 * property test that mangles valid IR at random.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/text/parser.js';
import { SourceError } from '../../src/util/diagnostic.js';

function errorOf(text: string): { line: number; col: number; detail: string } {
  try {
    parseModule(text, 'bad.ll');
  } catch (e) {
    expect(e).toBeInstanceOf(SourceError);
    const se = e as SourceError;
    expect(se.message).toBe(`bad.ll:${se.line}:${se.col}: error: ${se.detail}`);
    return { line: se.line, col: se.col, detail: se.detail };
  }
  throw new Error('expected a parse error');
}

describe('located parse errors', () => {
  const cases: [string, string, number, number, string][] = [
    ['unknown opcode', 'define void @f() {\n  %x = frob i32 1\n  ret void\n}', 2, 8, "expected instruction opcode, found 'frob'"],
    ['missing operand', 'define i32 @f() {\n  %x = add i32 1\n  ret i32 %x\n}', 3, 3, "expected ',', found 'ret'"],
    ['undefined value', 'define i32 @f() {\n  ret i32 %nope\n}', 2, 11, "use of undefined value '%nope'"],
    ['undefined global', 'define ptr @f() {\n  ret ptr @nope\n}', 2, 11, "use of undefined value '@nope'"],
    ['type mismatch on use', 'define i32 @f(i64 %a) {\n  %x = add i32 %a, 1\n  ret i32 %x\n}', 2, 16, "'%a' defined with type 'i64' but expected 'i32'"],
    ['bad type', 'define i33x @f() {\n  ret void\n}', 1, 8, "expected type, found 'i33x'"],
    ['missing terminator', 'define void @f() {\n  %x = add i32 1, 2\n}', 3, 1, "expected instruction: block '%0' must end with a terminator"],
    ['wrong numbering (LLVM 19 allows gaps, not going back)', 'define i32 @f() {\n  %0 = add i32 1, 2\n  ret i32 %0\n}', 2, 3, "instruction expected to be numbered '%1' or greater"],
    ['redefinition', 'define i32 @f() {\n  %x = add i32 1, 2\n  %x = add i32 1, 2\n  ret i32 %x\n}', 3, 3, "multiple definition of local value named '%x'"],
    ['unterminated string', '@s = global [2 x i8] c"a\\00', 1, 23, 'unterminated string'],
    ['bad character', 'define void @f() {\n  ret void ^\n}', 2, 12, "unexpected character '^'"],
    ['ret type', 'define i32 @f() {\n  ret void\n}', 2, 3, "value doesn't match function result type 'i32'"],
    ['undefined label', 'define void @f() {\n  br label %nowhere\n}', 2, 12, "use of undefined label '%nowhere'"],
    ['call arity', 'declare i32 @g(i32, ...)\ndefine i32 @f() {\n  %x = call i32 (i32, ...) @g()\n  ret i32 %x\n}', 3, 8, "call has 0 argument(s), but the function type 'i32 (i32, ...)' takes 1"],
    ['global redefinition', '@a = global i32 0\n@a = global i32 1', 2, 1, "redefinition of global '@a'"],
    ['string size', '@s = global [3 x i8] c"ab"', 1, 22, "constant string of 2 bytes does not match type '[3 x i8]'"],
    ['top level junk', 'hello', 1, 1, "expected a top-level entity, found 'hello'"],
    ['unterminated body', 'define void @f() {\n  ret void\n', 1, 8, "unterminated function body of '@f'"],
    ['plus sign on an integer (llvm-as-19 rejects it too)', 'define i32 @f() {\n  ret i32 +5\n}', 2, 11, "'+' may only start a floating-point literal (write 5, not +5)"],
    ['exception handling', 'define void @f() {\n  resume i32 0\n}', 2, 3, "instruction 'resume' (exception handling) is not supported"],
  ];
  for (const [what, text, line, col, detail] of cases) {
    it(what, () => {
      const e = errorOf(text);
      expect(e.detail).toBe(detail);
      expect([e.line, e.col]).toEqual([line, col]);
    });
  }
});

it('reads legacy typed pointers as ptr', () => {
  const m = parseModule('define i32 @f(i32* %p, i8** %q, void (i32)* %fp) {\n  %x = load i32, i32* %p\n  ret i32 %x\n}');
  const f = m.getFunction('f')!;
  expect(f.args.map((a) => a.type.toString())).toEqual(['ptr', 'ptr', 'ptr']);
});

describe('mangled IR never crashes the parser', () => {
  const seeds = ['test/text/fixtures/sample.ll'];
  const text = readFileSync(seeds[0], 'utf8');
  it('random deletions, insertions and truncations give a module or a SourceError', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(text.length), fc.nat(40), fc.constantFrom('', '%', '@', ',', '(', ']', '}', 'i32', '"', '!', '0x', '-', 'label', '\n', ';')), { minLength: 1, maxLength: 4 }),
        (edits) => {
          let t = text;
          for (const [pos, len, ins] of edits) t = t.slice(0, pos % (t.length + 1)) + ins + t.slice((pos % (t.length + 1)) + (len % 5));
          try {
            parseModule(t, 'm.ll');
          } catch (e) {
            if (!(e instanceof SourceError)) throw e;
          }
        },
      ),
      { numRuns: 400, seed: 7 },
    );
  });
});

it('resolves blockaddress to the block, so renumbering keeps it right', async () => {
  const { printModule } = await import('../../src/text/printer.js');
  const text = `@tbl = global [2 x ptr] [ptr blockaddress(@f, %2), ptr blockaddress(@f, %named)]
define i32 @f(i32 %x) {
  %1 = alloca i32
  br label %2
2:
  indirectbr ptr null, [label %2, label %named]
named:
  ret i32 1
}`;
  const m = parseModule(text, 'ba.ll');
  // delete the alloca: the printer renumbers block %2 as %1
  m.getFunction('f')!.entry.first!.eraseFromParent();
  const out = printModule(m);
  expect(out).toContain('blockaddress(@f, %1), ptr blockaddress(@f, %named)');
  expect(out).toContain('\n1:');
});
