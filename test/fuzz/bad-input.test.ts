/**
 * Fuzz suite (npm run test:fuzz): bad input never reaches an internal error, and ssakit
 * accepts exactly what LLVM accepts. Harness and outcomes: bad-input-harness.ts.
 *
 * Size knobs (defaults in brackets; the targets are 10,000 / 5,000):
 *   SSAKIT_BADINPUT_LL_N [2000]      .ll mutants (clang-19 -O0/-O2 of test/programs and generated C)
 *   SSAKIT_BADINPUT_SY_N [1000]      .sy mutants (test/sysy and generated SysY)
 *   SSAKIT_BADINPUT_CORRUPT_N [270]  semantic corruptions, checked against opt-19 -passes=verify
 *   SSAKIT_BADINPUT_CLI_N [30]       mutants also sent through the CLI's error path
 *   SSAKIT_BADINPUT_SEED [1]
 *   SSAKIT_BADINPUT_PROGRESS         a file the .ll run rewrites every 100 mutants with its counts so far
 *   SSAKIT_BADINPUT_DEEP_EVERY [1]   every how many accepted mutants one also runs -O2 and the
 *                                    interpreter (all are parsed and verified)
 */
import { describe, expect, it } from 'vitest';
import { mutateLL, mutateSysY } from '../../src/fuzz/ll-mutator.js';
import { hasLlvm } from '../helpers/llvm.js';
import { cliSample, fuzzCorruptions, fuzzLL, fuzzSysY, llCorpus, syCorpus } from './bad-input-harness.js';

const LL_N = Number(process.env.SSAKIT_BADINPUT_LL_N ?? 2000);
const SY_N = Number(process.env.SSAKIT_BADINPUT_SY_N ?? 1000);
const CORRUPT_N = Number(process.env.SSAKIT_BADINPUT_CORRUPT_N ?? 270);
const CLI_N = Number(process.env.SSAKIT_BADINPUT_CLI_N ?? 30);
const SEED = Number(process.env.SSAKIT_BADINPUT_SEED ?? 1);

function show(title: string, counts: Record<string, number>): void {
  console.log(`${title}\n` + Object.entries(counts).sort().map(([k, v]) => `  ${k}: ${v}`).join('\n'));
}

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('fuzz: bad input', () => {
  it(`${LL_N} .ll mutants: no internal error, no timeout, and we accept what llvm-as-19 accepts, no more, no less`, async () => {
    const rep = await fuzzLL(llCorpus(1000, 20), LL_N, SEED * 1_000_000, true);
    show(`.ll mutants (${LL_N}, seed ${SEED * 1_000_000}):`, rep.counts);
    for (const s of rep.stricter.slice(0, 15)) console.log(`  stricter than llvm-as (seed ${s.seed}, ${s.base}): ${s.ours}`);
    for (const u of rep.undocumented.slice(0, 10)) console.log(`UNDOCUMENTED seed ${u.seed} (${u.base}): llvm-as-19: ${u.llvm}`);
    for (const u of rep.internal.slice(0, 10)) console.log(`INTERNAL seed ${u.seed} (${u.base}): ${u.detail}`);
    expect(rep.internal.map((x) => `${x.seed}: ${x.detail.split('\n')[0]}`)).toEqual([]);
    expect(rep.undocumented.map((x) => `${x.seed}: ${x.llvm}`)).toEqual([]);
    // and what llvm-as-19 accepts, we accept, but for the documented differences ("direction": "stricter")
    expect(rep.stricter.map((x) => `${x.seed}: ${x.ours}`)).toEqual([]);
  }, 24 * 3600_000);

  it(`${SY_N} .sy mutants: no internal error, no timeout`, async () => {
    const rep = await fuzzSysY(syCorpus(1000, 40), SY_N, SEED * 2_000_000);
    show(`.sy mutants (${SY_N}, seed ${SEED * 2_000_000}):`, rep.counts);
    for (const u of rep.internal.slice(0, 10)) console.log(`INTERNAL seed ${u.seed} (${u.base}): ${u.detail}`);
    expect(rep.internal.map((x) => `${x.seed}: ${x.detail.split('\n')[0]}`)).toEqual([]);
  }, 24 * 3600_000);

  it(`${CORRUPT_N} semantic corruptions: what opt-19 -passes=verify rejects, we reject`, async () => {
    const rep = await fuzzCorruptions(llCorpus(1000, 0), CORRUPT_N, SEED * 3_000_000);
    show(`semantic corruptions (${CORRUPT_N}):`, rep.counts);
    for (const u of rep.missed.slice(0, 10)) console.log(`MISSED ${u.kind} seed ${u.seed} (${u.base}): opt-19: ${u.llvm}`);
    expect(rep.missed.map((x) => `${x.kind} ${x.seed}: ${x.llvm}`)).toEqual([]);
  }, 24 * 3600_000);

  it(`${CLI_N} mutants through the CLI: exit 0 or 1, located errors, no stack trace`, async () => {
    const ll = llCorpus(1000, 0);
    const sy = syCorpus(1000, 0);
    const texts: { text: string; ext: '.ll' | '.sy' }[] = [];
    for (let k = 0; k < CLI_N; k++) {
      if (k % 2 === 0) texts.push({ text: mutateLL(ll[k % ll.length].text, SEED * 4_000_000 + k), ext: '.ll' });
      else texts.push({ text: mutateSysY(sy[k % sy.length].text, SEED * 4_000_000 + k), ext: '.sy' });
    }
    expect(await cliSample(texts)).toEqual([]);
  }, 24 * 3600_000);
});
