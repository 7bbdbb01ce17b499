/**
 * A global too big for the interpreter (an object is at most 1 GiB, as an alloca is) gets a
 * runtime error naming it, like a huge local does, never the host's "Array buffer allocation
 * failed" as an internal error; from IR text, from SysY, and through the CLI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSysY } from '../../src/frontend/sysy/index.js';
import { InterpError, runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';

const HUGE = '@a = global [100000 x [100000 x i32]] zeroinitializer\ndefine i32 @main() {\n  ret i32 0\n}\n';
const WANT = "global @a of type '[100000 x [100000 x i32]]' needs 40000000000 bytes (more than 1 GiB per object)";

describe('huge globals', () => {
  it('IR: an InterpError naming the global', () => {
    expect(() => runModule(parseModule(HUGE, 'huge.ll'))).toThrow(InterpError);
    expect(() => runModule(parseModule(HUGE, 'huge.ll'))).toThrow(WANT);
  });

  it('SysY: int a[100000][100000]', () => {
    const r = compileSysY('int a[100000][100000];\nint main() { a[1][2] = 3; return a[1][2]; }\n', 'huge.sy');
    expect(() => runModule(r.module!)).toThrow(WANT);
  });

  it('a global of exactly 1 GiB is refused only if the host cannot allocate it; one just above is refused', () => {
    const over = '@b = global [268435457 x i32] zeroinitializer\ndefine i32 @main() {\n  ret i32 0\n}\n';
    expect(() => runModule(parseModule(over, 'b.ll'))).toThrow('needs 1073741828 bytes (more than 1 GiB per object)');
  });

  it('CLI: exit code 1 and "runtime error", no internal error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssakit-huge-'));
    const f = join(dir, 'huge.ll');
    writeFileSync(f, HUGE);
    const r = spawnSync(process.execPath, ['dist/ssakit.js', 'run', f], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`ssakit: runtime error: ${WANT}\n`);
  });
});
