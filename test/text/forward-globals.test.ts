/**
 * Forward references to globals: the parser's prescan records the kind of every top-level
 * `@name` definition (function, variable, alias) before parsing, so a use above the
 * definition (a function pointer table, say) gets an object of the right kind. The scan
 * must find definitions however the line is laid out: indented, with several blanks,
 * quoted names with escapes, CRLF line ends.
 */
import { describe, expect, it } from 'vitest';
import { ConstantArray } from '../../src/ir/constants.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { hasLlvm, llvmAsError } from '../helpers/llvm.js';

const TEXT = [
  '@tbl = global [5 x ptr] [ptr @f, ptr @"q\\22x", ptr @v, ptr @al, ptr @c]',
  '   define   void @f() {',
  '  ret void',
  '}',
  'define internal void @"q\\22x"() {',
  '  ret void',
  '}',
  '  @v = internal global i32 7',
  '\t@al = alias i32, ptr @v',
  '@c = private unnamed_addr constant [2 x i8] c"a\\00"',
  '',
].join('\n');

function kinds(text: string): string[] {
  const m = parseModule(text, 'fw.ll');
  const init = m.globals.find((g) => g.name === 'tbl')!.initializer as ConstantArray;
  return init.elements.map((e) => `${e.constructor.name} ${e.name}`);
}

describe('forward references to globals', () => {
  const want = ['Function f', 'Function q"x', 'GlobalVariable v', 'GlobalAlias al', 'GlobalVariable c'];

  it('resolve to the kind of their definition (LF line ends)', () => {
    expect(kinds(TEXT)).toEqual(want);
  });

  it('resolve to the kind of their definition (CRLF line ends)', () => {
    expect(kinds(TEXT.replace(/\n/g, '\r\n'))).toEqual(want);
  });

  // Reason for runIf: llvm-as-19 is the independent oracle of the printed text.
  it.runIf(hasLlvm())('print as text llvm-as-19 accepts', () => {
    expect(llvmAsError(printModule(parseModule(TEXT, 'fw.ll')))).toBeNull();
  });
});
