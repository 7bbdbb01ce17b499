/**
 * Checked memory: every kind of bad access is a RuntimeError that says what went wrong and
 * where (function, block, instruction); good accesses of any alignment work.
 */
import { describe, expect, it } from 'vitest';
import { RuntimeError } from '../../src/util/diagnostic.js';
import { InterpError } from '../../src/interp/index.js';
import { runIR } from './helpers.js';

function errorOf(text: string): InterpError {
  try {
    runIR(text);
  } catch (e) {
    expect(e).toBeInstanceOf(RuntimeError);
    return e as InterpError;
  }
  throw new Error('expected a runtime error');
}

const DECLS = `
declare ptr @malloc(i64)
declare void @free(ptr)
declare i32 @printf(ptr, ...)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare i64 @strlen(ptr)
@.str = private unnamed_addr constant [4 x i8] c"%d\\0A\\00", align 1
`;

describe('memory errors', () => {
  it('out of bounds of an alloca, with the instruction as LLVM prints it', () => {
    const e = errorOf(`define i32 @main() {
  %1 = alloca [10 x i32], align 16
  %2 = getelementptr inbounds [10 x i32], ptr %1, i64 0, i64 10
  %3 = load i32, ptr %2, align 4
  ret i32 %3
}
`);
    expect(e.message).toBe('load of 4 bytes out of bounds of a 40-byte alloca (offset 40) in @main, block %0: %3 = load i32, ptr %2, align 4');
  });
  it('negative offsets are reported as such', () => {
    const e = errorOf(`@g = global [4 x i32] zeroinitializer
define i32 @main() {
entry:
  %p = getelementptr inbounds i32, ptr @g, i64 -1
  store i32 1, ptr %p, align 4
  ret i32 0
}
`);
    expect(e.message).toBe('store of 4 bytes out of bounds of global @g (16 bytes) (offset -4) in @main, block %entry: store i32 1, ptr %p, align 4');
  });
  it('a partly out-of-bounds access of a heap block', () => {
    const e = errorOf(`${DECLS}
define i32 @main() {
  %p = call ptr @malloc(i64 10)
  %q = getelementptr i8, ptr %p, i64 8
  %v = load i32, ptr %q, align 4
  ret i32 %v
}
`);
    expect(e.message).toMatch(/^load of 4 bytes out of bounds of a 10-byte heap block \(offset 8\) in @main, block %0: %v = load i32, ptr %q/);
  });
  it('use after free, double free, invalid frees', () => {
    expect(errorOf(`${DECLS}
define i32 @main() {
  %p = call ptr @malloc(i64 40)
  call void @free(ptr %p)
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
`).message).toMatch(/^use after free: load of 4 bytes from a freed 40-byte heap block \(offset 0\) in @main/);
    expect(errorOf(`${DECLS}
define i32 @main() {
  %p = call ptr @malloc(i64 40)
  call void @free(ptr %p)
  call void @free(ptr %p)
  ret i32 0
}
`).message).toMatch(/^double free of a 40-byte heap block in @main, block %0: call void @free\(ptr %p\)/);
    expect(errorOf(`${DECLS}
define i32 @main() {
  %a = alloca [4 x i32]
  call void @free(ptr %a)
  ret i32 0
}
`).message).toMatch(/^free of a pointer that malloc did not return \(a 16-byte alloca\)/);
    expect(errorOf(`${DECLS}
define i32 @main() {
  %p = call ptr @malloc(i64 40)
  %q = getelementptr i8, ptr %p, i64 4
  call void @free(ptr %q)
  ret i32 0
}
`).message).toMatch(/^free of a pointer into the middle of a 40-byte heap block \(offset 4\)/);
  });
  it('null and wild pointers', () => {
    expect(errorOf(`define i32 @main() {
  %v = load i32, ptr null, align 4
  ret i32 %v
}
`).message).toBe('load of 4 bytes from null pointer in @main, block %0: %v = load i32, ptr null, align 4');
    expect(errorOf(`%struct.S = type { i64, i32 }
define i32 @main() {
  %p = getelementptr inbounds %struct.S, ptr null, i64 0, i32 1
  store i32 5, ptr %p, align 4
  ret i32 0
}
`).message).toMatch(/^store of 4 bytes to null pointer \+ 8 in @main/);
    expect(errorOf(`define i32 @main() {
  %p = inttoptr i64 123456789 to ptr
  %v = load i8, ptr %p, align 1
  ret i32 0
}
`).message).toMatch(/^load of 1 byte from (invalid pointer 0x75bcd15|null pointer \+ 123456789) in @main/);
    expect(errorOf(`define i32 @main() {
  %p = inttoptr i64 -16 to ptr
  %v = load i8, ptr %p, align 1
  ret i32 0
}
`).message).toMatch(/^load of 1 byte from invalid pointer 0x[0-9a-f]+ in @main/);
  });
  it('use after return of a local', () => {
    const e = errorOf(`define ptr @leak() {
  %x = alloca i32, align 4
  store i32 7, ptr %x, align 4
  ret ptr %x
}
define i32 @main() {
  %p = call ptr @leak()
  %v = load i32, ptr %p, align 4
  ret i32 %v
}
`);
    expect(e.message).toMatch(/^use after return: load of 4 bytes from a 4-byte alloca of a function that has returned \(offset 0\) in @main/);
  });
  it('writes to constant globals (string literals)', () => {
    expect(errorOf(`@s = private constant [3 x i8] c"hi\\00"
define i32 @main() {
  store i8 72, ptr @s, align 1
  ret i32 0
}
`).message).toBe('store of 1 byte to constant global @s (offset 0) in @main, block %0: store i8 72, ptr @s, align 1');
  });
  it('overflows inside memcpy and strlen are located at the call', () => {
    expect(errorOf(`${DECLS}
define i32 @main() {
  %a = alloca [16 x i8]
  %b = alloca [32 x i8]
  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %b, i64 20, i1 false)
  ret i32 0
}
`).message).toMatch(/^memcpy writing of 20 bytes out of bounds of a 16-byte alloca \(offset 0\) in @main, block %0: call void @llvm.memcpy.p0.p0.i64\(ptr %a, ptr %b, i64 20, i1 false\)/);
    expect(errorOf(`${DECLS}
define i32 @main() {
  %a = alloca [4 x i8]
  store i32 1633771873, ptr %a
  %n = call i64 @strlen(ptr %a)
  ret i32 0
}
`).message).toMatch(/^strlen reading of 5 bytes out of bounds of a 4-byte alloca \(offset 0\) in @main, block %0: %n = call i64 @strlen\(ptr %a\)/);
  });
  it('calls through bad function pointers and code used as data', () => {
    expect(errorOf(`define i32 @main() {
  %r = call i32 null()
  ret i32 %r
}
`).message).toMatch(/^call through a null function pointer in @main/);
    expect(errorOf(`define i32 @main() {
  %v = load i32, ptr @main, align 4
  ret i32 %v
}
`).message).toMatch(/^load of 4 bytes from function @main \(code is not data\)/);
    expect(errorOf(`@g = global i32 0
define i32 @main() {
  %r = call i32 @g()
  ret i32 %r
}
`).message).toMatch(/^call through a pointer that is not a function \(pointer into global @g \(4 bytes\)\)/);
  });
  it('unreachable, unknown externals and traps', () => {
    expect(errorOf('define i32 @main() {\n  unreachable\n}\n').message).toBe('unreachable instruction executed in @main, block %0: unreachable');
    expect(errorOf('declare i32 @frobnicate(i32)\ndefine i32 @main() {\n  %r = call i32 @frobnicate(i32 1)\n  ret i32 %r\n}\n').message).toMatch(
      /^call to unknown external function @frobnicate in @main, block %0: %r = call i32 @frobnicate\(i32 1\)/,
    );
    expect(errorOf('declare void @llvm.trap()\ndefine i32 @main() {\n  call void @llvm.trap()\n  ret i32 0\n}\n').message).toMatch(/^@llvm.trap called \(trap\)/);
  });
  it('keeps what was printed before the error, and the exit code is 1', () => {
    const e = errorOf(`${DECLS}
define i32 @main() {
  %r = call i32 (ptr, ...) @printf(ptr @.str, i32 42)
  %v = load i32, ptr null
  ret i32 0
}
`);
    expect(e.stdout).toBe('42\n');
    expect(e.exitCode).toBe(1);
  });
});

describe('good accesses', () => {
  it('misaligned loads and stores work (x86 allows them), little endian', () => {
    const r = runIR(`${DECLS}
define i32 @main() {
  %a = alloca [16 x i8], align 16
  %p = getelementptr i8, ptr %a, i64 1
  store i64 72623859790382856, ptr %p, align 1
  %q = getelementptr i8, ptr %a, i64 3
  %v = load i32, ptr %q, align 1
  %r = call i32 (ptr, ...) @printf(ptr @.str, i32 %v)
  %b = load i8, ptr %p, align 1
  %c = sext i8 %b to i32
  ret i32 %c
}
`);
    // 0x0102030405060708 stored at offset 1: bytes 08 07 06 05 04 03 02 01; offset 3 reads 06 05 04 03
    expect(r.stdout).toBe(`${0x03040506}\n`);
    expect(r.exitCode).toBe(8);
  });
  it('struct loads and stores move whole aggregates with padding', () => {
    const r = runIR(`${DECLS}
%struct.S = type { i8, i32, i64, [2 x i16] }
@g = global %struct.S { i8 1, i32 -2, i64 12345678901234, [2 x i16] [i16 3, i16 -4] }
define i32 @main() {
  %a = alloca %struct.S
  %v = load %struct.S, ptr @g
  store %struct.S %v, ptr %a
  %f = getelementptr inbounds %struct.S, ptr %a, i32 0, i32 3, i64 1
  %x = load i16, ptr %f
  %y = sext i16 %x to i32
  %w = extractvalue %struct.S %v, 1
  %v2 = insertvalue %struct.S %v, i32 99, 1
  %z = extractvalue %struct.S %v2, 1
  %s = add i32 %y, %w
  %t = add i32 %s, %z
  %u = call i32 (ptr, ...) @printf(ptr @.str, i32 %t)
  ret i32 0
}
`);
    expect(r.stdout).toBe('93\n');
  });
});
