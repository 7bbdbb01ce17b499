/**
 * The sweep of test/interp/libc-list.txt: each C library function common benchmark and
 * textbook programs call is, as the list says, implemented (a call reaches our code: with
 * no arguments it may fault on a null pointer, but it is never "unknown"), refused with a
 * message saying it is not supported (what would reach the host), or still missing. A
 * function implemented later fails the 'missing' check until the list says so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runModule } from '../../src/interp/index.js';
import { parseModule } from '../../src/text/parser.js';

const LIST = readFileSync(join(__dirname, 'libc-list.txt'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'))
  .map((l) => {
    const [header, name, status] = l.trim().split(/\s+/);
    return { header, name, status };
  });

/** What the interpreter says when main calls `name` with no arguments. */
function callOutcome(name: string): string {
  const m = parseModule(`declare void @${name}(...)\ndefine i32 @main() {\n  call void (...) @${name}()\n  ret i32 0\n}\n`, `${name}.ll`);
  try {
    const r = runModule(m, { stdout: 'collect', stderr: 'collect', maxSteps: 1e6 });
    return `exit ${r.exitCode} ${r.stderr ?? ''}`;
  } catch (e) {
    return (e as Error).message;
  }
}

describe('the C library list against the interpreter', () => {
  it('the list covers stdio, stdlib, string, ctype, math and time, each name once, with a known status', () => {
    const headers = new Set(LIST.map((e) => e.header));
    for (const h of ['stdio.h', 'stdlib.h', 'string.h', 'ctype.h', 'math.h', 'time.h']) expect(headers).toContain(h);
    expect(new Set(LIST.map((e) => e.name)).size).toBe(LIST.length);
    for (const e of LIST) expect(['ok', 'refused', 'missing'], e.name).toContain(e.status);
    expect(LIST.length).toBeGreaterThan(200);
  });

  for (const status of ['ok', 'refused', 'missing']) {
    it(`every '${status}' function behaves so`, () => {
      for (const { name } of LIST.filter((e) => e.status === status)) {
        const out = callOutcome(name);
        // (an implemented function may still refuse some arguments, as getline a FILE* other than stdin)
        if (status === 'ok') expect(out, name).not.toMatch(/unknown external function|not supported by ssakit's interpreter \(a sandbox/);
        else if (status === 'refused') expect(out, name).toMatch(new RegExp(`^${name}: .*not supported by ssakit's interpreter`));
        else expect(out, name).toMatch(new RegExp(`call to unknown external function @${name}\\b`));
      }
    });
  }
});
