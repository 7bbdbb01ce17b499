/**
 * The README's "See the algorithms" section stays true: every table row's command (the
 * "try it" column, `ssakit` being the built CLI) exits with 0 and prints the row's quoted
 * line (runs of spaces compared as one; `…` elides text between the pieces, which must
 * appear in order); and every trace name of the registry and every parameter of the SSA
 * constructions has a row.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { traceNames } from '../../src/passes/traces.js';

const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'dist/ssakit.js');

interface Row {
  command: string;
  expected: string;
}

function rows(): { rows: Row[]; section: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### See the algorithms');
  expect(start).toBeGreaterThan(0);
  const end = readme.indexOf('\n### ', start + 1);
  const section = readme.slice(start, end);
  const out: Row[] = [];
  for (const line of section.split('\n')) {
    if (!line.startsWith('| ')) continue;
    // the last two cells: `command` | `expected line`
    const m = /\| `(ssakit [^`]+)` \| `(.+)` \|$/.exec(line);
    if (m !== null) out.push({ command: m[1], expected: m[2] });
  }
  return { rows: out, section };
}

const squash = (s: string): string => s.replace(/[ \t]+/g, ' ');

describe('README: See the algorithms', () => {
  const { rows: all, section } = rows();

  it('has a row for every trace and every variant of the SSA constructions and printers', () => {
    expect(all.length).toBeGreaterThan(25);
    for (const name of traceNames()) expect(section, `trace ${name}`).toContain(`--trace=${name}`);
    for (const v of ['mem2reg<minimal>', 'mem2reg<semi-pruned>', 'mem2reg<pruned>', 'mem2reg-braun<marker>', 'mem2reg-braun<no-scc>', 'print<domtree>', 'print<postdomtree>', 'print<loops>', '--graph=cdg', '--trace-json']) {
      expect(all.some((r) => r.command.includes(v)), v).toBe(true);
    }
  });

  for (const row of all) {
    it(row.command, () => {
      // through sh, as a reader would paste it (the pipelines are quoted for the shell)
      const out = execFileSync('sh', ['-c', `${row.command.replace(/^ssakit /, `node ${CLI} `)} 2>&1`], { cwd: ROOT, encoding: 'utf8' });
      const text = squash(out);
      let at = 0;
      for (const piece of row.expected.split('…').map((p) => squash(p).trim()).filter((p) => p !== '')) {
        const k = text.indexOf(piece, at);
        expect(k, `${row.command}: output lacks '${piece}'`).toBeGreaterThanOrEqual(0);
        at = k + piece.length;
      }
    });
  }
});
