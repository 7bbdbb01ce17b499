/**
 * Speed check of the SysY frontend (not part of `npm test`): generates a
 * program of about 1,000,000 lines and times lex + parse + analysis.
 *
 *   npx esbuild test/frontend/sysy-speed.ts --bundle --platform=node --format=esm --outfile=/tmp/sysy-speed.mjs && node /tmp/sysy-speed.mjs [lines]
 *
 * (Running it through tsx works too but is slower than the bundled CLI.)
 */
import { analyzeSysY } from '../../src/frontend/sysy/index.js';

const target = Number(process.argv[2] ?? 1_000_000);
const lines: string[] = ['int g[100];', 'const int K = 10;'];
let f = 0;
while (lines.length < target) {
  lines.push(`int f${f}(int a, int b[]) {`, '  int i = 0, s = 0;', '  float x = 1.5;');
  for (let j = 0; j < 30; j++) {
    lines.push(
      `  while (i < a + ${j}) {`,
      `    if (i % 3 == 0 && s > -${j}) s = s + b[i % K] * ${j} - (i / 2);`,
      '    else x = x * 0.5 + i;',
      '    i = i + 1;',
      '  }',
    );
  }
  lines.push(f > 0 ? `  return s + f${f - 1}(a - 1, b) + x;` : '  return s;', '}');
  f++;
}
lines.push('int main() { return f0(3, g); }');
const text = lines.join('\n') + '\n';
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const r = analyzeSysY(text, 'speed.sy');
const cpu = process.cpuUsage(cpu0);
const ms = performance.now() - t0;
if (r.diagnostics.length) throw new Error(`unexpected diagnostics: ${r.diagnostics[0].message}`);
console.log(`${lines.length} lines, ${(text.length / 1e6).toFixed(1)} MB: lex+parse+check ${ms.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
