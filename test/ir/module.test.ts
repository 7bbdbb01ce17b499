import { describe, expect, it } from 'vitest';
import { functionType, i32, i64, ptr, voidType } from '../../src/ir/types.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';

describe('Module.getOrInsertFunction', () => {
  const m = parseModule(`@taken = global i32 0
declare i32 @f(i32)
`, 'm.ll');
  it('declares a missing function once, and finds it again', () => {
    const t = functionType(voidType, [ptr, i64]);
    const d = m.getOrInsertFunction('llvm.thing', t)!;
    expect(d.isDeclaration()).toBe(true);
    expect(m.getOrInsertFunction('llvm.thing', functionType(voidType, [ptr, i64]))).toBe(d);
    expect(printModule(m)).toContain('declare void @llvm.thing(ptr, i64)');
  });
  it('returns an existing function of the same type; null for another type or a global', () => {
    expect(m.getOrInsertFunction('f', functionType(i32, [i32]))).toBe(m.getFunction('f'));
    expect(m.getOrInsertFunction('f', functionType(i64, [i32]))).toBeNull();
    expect(m.getOrInsertFunction('taken', functionType(voidType, []))).toBeNull();
  });
});
