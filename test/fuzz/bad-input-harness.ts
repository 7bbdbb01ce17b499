/**
 * The bad-input fuzz harness (used by test/fuzz/bad-input.test.ts at full size and by
 * test/text/bad-input-slice.test.ts for a few seconds in `npm test`).
 *
 * Every mutant goes through the library in-process as the CLI would take it: parse, verify,
 * and when valid `-O2` (the result verified and printed and read back) and the interpreter
 * with a step limit. The outcome of a mutant is one of: accepted, rejected with a located
 * error, internal error (any other exception: the defect this suite exists to find), or
 * timeout. For `.ll` mutants llvm-as-19 gives its verdict too; "we accept what llvm-as
 * rejects" must be empty outside test/fuzz/llvm-differences.json (each entry: a regex on
 * llvm-as-19's message and why we differ).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileSysY } from '../../src/frontend/sysy/index.js';
import { corrupt, CORRUPTIONS, type Corruption } from '../../src/fuzz/ir-corrupter.js';
import { generateCProgram, generateSysYProgram } from '../../src/fuzz/c-gen.js';
import { mutateLL, mutateSysY } from '../../src/fuzz/ll-mutator.js';
import { InterpError, runModule } from '../../src/interp/index.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { RuntimeError, SourceError } from '../../src/util/diagnostic.js';
import { clangFileToLL, clangToLL, LLVM_AS, OPT, runTool } from '../helpers/llvm.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A mutant's fate in our hands. */
export type Outcome = 'accepted' | 'rejected-parse' | 'rejected-verify' | 'internal-error' | 'timeout';

export interface OurVerdict {
  outcome: Outcome;
  detail: string;
  ms: number;
}

/**
 * CPU milliseconds a mutant may take in-process (parse, verify, -O2, run) before it counts as
 * a timeout. CPU, not wall time: at load 20-30 a 5 s mutant took 30 s of wall time (SysY
 * slice seed 606: 30.7 s wall, 5.0 s CPU) and failed the slice; a hang burns CPU either way.
 */
const TIMEOUT_MS = 20_000;
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const MAX_STEPS = 200_000;
/**
 * Every how many accepted mutants one also goes through -O2 and the interpreter (1: all).
 * Parse and verify are cheap, -O2 and a run are not (about 1 s for a 700-line module on a busy
 * machine): a full-size run samples them (SSAKIT_BADINPUT_DEEP_EVERY).
 */
const DEEP_EVERY = Number(process.env.SSAKIT_BADINPUT_DEEP_EVERY ?? 1);
let deepCounter = 0;

function isExpected(e: unknown): boolean {
  return e instanceof SourceError || e instanceof InterpError || e instanceof RuntimeError;
}

function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message.slice(0, 300)}\n${(e.stack ?? '').split('\n').slice(1, 6).join('\n')}` : String(e);
}

/** Parse, verify, -O2 and run one `.ll` mutant in-process. */
export function ourVerdictLL(text: string, file = 'mutant.ll'): OurVerdict {
  const t0 = cpuMs();
  const done = (outcome: Outcome, detail: string): OurVerdict => {
    const ms = cpuMs() - t0;
    // a slow mutant is reported as one, with its CPU time (a hang is the defect)
    if (ms > TIMEOUT_MS && outcome !== 'internal-error') return { outcome: 'timeout', detail: `timeout: ${Math.round(ms)} ms of CPU (limit ${TIMEOUT_MS} ms), then ${outcome}${detail === '' ? '' : ': ' + detail}`, ms };
    return { outcome, detail, ms };
  };
  let m;
  try {
    m = parseModule(text, file);
  } catch (e) {
    if (e instanceof SourceError) {
      if (!new RegExp(`^${file.replace(/\./g, '\\.')}:\\d+:\\d+: error: `).test(e.message)) return done('internal-error', `unlocated parse error: ${e.message}`);
      return done('rejected-parse', e.message.split('\n')[0]);
    }
    return done('internal-error', 'parse: ' + describeError(e));
  }
  let problems;
  try {
    problems = verifyModule(m);
  } catch (e) {
    return done('internal-error', 'verify: ' + describeError(e));
  }
  if (problems.length > 0) return done('rejected-verify', problems[0].message.split('\n')[0]);
  if (deepCounter++ % DEEP_EVERY !== 0) return done('accepted', '');
  try {
    const hasMain = m.getFunction('main')?.isDeclaration() === false;
    if (hasMain) {
      try {
        runModule(parseModule(text, file), { maxSteps: MAX_STEPS, stdin: '', stdout: 'collect', stderr: 'collect' });
      } catch (e) {
        if (!isExpected(e)) return done('internal-error', 'run: ' + describeError(e));
      }
    }
    runPipeline(m, 'default<O2>');
    const after = verifyModule(m);
    if (after.length > 0) return done('internal-error', `-O2 output broken: ${after[0].message}`);
    const printed = printModule(m);
    parseModule(printed, 'o2.ll');
  } catch (e) {
    if (e instanceof InterpError) return done('accepted', '');
    return done('internal-error', '-O2: ' + describeError(e));
  }
  return done('accepted', '');
}

/** Compile, verify, -O2 and run one `.sy` mutant in-process. */
export function ourVerdictSysY(text: string, file = 'mutant.sy'): OurVerdict {
  const t0 = cpuMs();
  const done = (outcome: Outcome, detail: string): OurVerdict => {
    const ms = cpuMs() - t0;
    // a slow mutant is reported as one, with its CPU time (a hang is the defect)
    if (ms > TIMEOUT_MS && outcome !== 'internal-error') return { outcome: 'timeout', detail: `timeout: ${Math.round(ms)} ms of CPU (limit ${TIMEOUT_MS} ms), then ${outcome}${detail === '' ? '' : ': ' + detail}`, ms };
    return { outcome, detail, ms };
  };
  let r;
  try {
    r = compileSysY(text, file);
  } catch (e) {
    if (e instanceof SourceError) return done('rejected-parse', e.message.split('\n')[0]);
    return done('internal-error', 'compile: ' + describeError(e));
  }
  if (r.module === undefined) {
    const d = r.diagnostics.find((x) => x.severity === 'error');
    if (d === undefined || !(d.line >= 1 && d.col >= 1)) return done('internal-error', `error without a location: ${d?.message}`);
    return done('rejected-parse', `${d.file}:${d.line}:${d.col}: error: ${d.message}`);
  }
  try {
    const problems = verifyModule(r.module);
    if (problems.length > 0) return done('internal-error', `the frontend made broken IR: ${problems[0].message}`);
    if (deepCounter++ % DEEP_EVERY !== 0) return done('accepted', '');
    const text0 = printModule(r.module);
    try {
      runModule(parseModule(text0, 'mutant.ll'), { maxSteps: MAX_STEPS, stdin: '', stdout: 'collect', stderr: 'collect' });
    } catch (e) {
      if (!isExpected(e)) return done('internal-error', 'run: ' + describeError(e));
    }
    runPipeline(r.module, 'default<O2>');
    const after = verifyModule(r.module);
    if (after.length > 0) return done('internal-error', `-O2 output broken: ${after[0].message}`);
  } catch (e) {
    return done('internal-error', describeError(e));
  }
  return done('accepted', '');
}

/** llvm-as-19's verdict: null when it accepts, else its first line. */
export function llvmAsVerdict(text: string): string | null {
  const r = runTool(LLVM_AS, ['-', '-o', '/dev/null'], { input: text, timeout: 60_000 });
  if (r.status === 0) return null;
  return (r.stderr.split('\n').filter((l) => l.trim() !== '' && !/^llvm-as-19: assembly parsed, but does not verify/.test(l))[0] ?? `status ${r.status}`).replace(/^llvm-as-19: /, '');
}

/** opt-19 -passes=verify's verdict: null when it accepts. */
export function optVerifyVerdict(text: string): string | null {
  const r = runTool(OPT, ['-passes=verify', '-disable-output', '-'], { input: text, timeout: 60_000 });
  if (r.status === 0) return null;
  return r.stderr.split('\n').find((l) => l.trim() !== '') ?? `status ${r.status}`;
}

export interface Difference {
  pattern: string;
  reason: string;
  /** 'stricter': ssakit rejects what llvm-as-19 accepts (the pattern is on ssakit's message); else the reverse. */
  direction?: 'stricter';
  /** Counted only when llvm-as-19's message points at a line that defines metadata. */
  onMetadataLine?: boolean;
}

/** The documented deliberate differences (test/fuzz/llvm-differences.json). */
export function documentedDifferences(direction: 'accepts' | 'stricter' = 'accepts'): { re: RegExp; reason: string; onMetadataLine: boolean }[] {
  const list = JSON.parse(readFileSync(join(ROOT, 'test', 'fuzz', 'llvm-differences.json'), 'utf8')) as Difference[];
  return list
    .filter((d) => (d.direction === 'stricter') === (direction === 'stricter'))
    .map((d) => ({ re: new RegExp(d.pattern), reason: d.reason, onMetadataLine: d.onMetadataLine === true }));
}

/** Whether llvm-as-19's `<stdin>:L:C:` message points at a metadata definition line of `text`. */
function pointsAtMetadata(llvm: string, text: string): boolean {
  const m = /^<stdin>:(\d+):\d+:/.exec(llvm);
  if (m === null) return false;
  const line = text.split('\n')[Number(m[1]) - 1] ?? '';
  return /^\s*!/.test(line);
}

/** Seed `.ll` files: clang-19 -O0/-O2 of the C corpus and of generated C programs. */
export function llCorpus(programs: number, generated: number): { name: string; text: string }[] {
  const dir = join(ROOT, 'test', 'programs');
  const files = readdirSync(dir).filter((f) => f.endsWith('.c')).sort().slice(0, programs);
  const out: { name: string; text: string }[] = [];
  for (const f of files) {
    for (const level of ['O0', 'O2'] as const) out.push({ name: `${f}-${level}`, text: readFileSync(clangFileToLL(join(dir, f), level), 'utf8') });
  }
  for (let s = 0; s < generated; s++) {
    const level = s % 2 === 0 ? 'O0' : 'O2';
    out.push({ name: `gen${s}-${level}`, text: readFileSync(clangToLL(generateCProgram(7000 + s), level, [], `badinput-gen${s}`), 'utf8') });
  }
  return out;
}

/** Seed `.sy` files: the SysY corpus and generated programs. */
export function syCorpus(files: number, generated: number): { name: string; text: string }[] {
  const dir = join(ROOT, 'test', 'sysy');
  const out = readdirSync(dir)
    .filter((f) => f.endsWith('.sy'))
    .sort()
    .slice(0, files)
    .map((f) => ({ name: f, text: readFileSync(join(dir, f), 'utf8') }));
  for (let s = 0; s < generated; s++) out.push({ name: `gen${s}.sy`, text: generateSysYProgram(9000 + s) });
  return out;
}

export interface LLReport {
  counts: Record<string, number>;
  /** We accept, llvm-as-19 rejects, no documented reason: must be empty. */
  undocumented: { seed: number; base: string; llvm: string; text: string }[];
  internal: { seed: number; base: string; detail: string; text: string }[];
  /** We reject, llvm-as-19 accepts (reported, not failed: our rules are a subset). */
  stricter: { seed: number; base: string; ours: string }[];
}

/** n `.ll` mutants of the corpus from seed `seed`, each judged by us and by llvm-as-19. */
/** Lets the test runner's worker answer its RPC during a long loop (vitest times out otherwise). */
function breathe(k: number): Promise<void> | null {
  return k % 16 === 15 ? new Promise((r) => setImmediate(r)) : null;
}

export async function fuzzLL(corpus: { name: string; text: string }[], n: number, seed: number, withLlvm: boolean): Promise<LLReport> {
  const diffs = documentedDifferences();
  const stricterDiffs = documentedDifferences('stricter');
  const rep: LLReport = { counts: {}, undocumented: [], internal: [], stricter: [] };
  const bump = (k: string): void => void (rep.counts[k] = (rep.counts[k] ?? 0) + 1);
  const progress = process.env.SSAKIT_BADINPUT_PROGRESS;
  for (let k = 0; k < n; k++) {
    await breathe(k);
    // a long run can be read while it goes: the counts so far, every 100 mutants
    if (progress !== undefined && k % 100 === 0) writeFileSync(progress, JSON.stringify({ done: k, of: n, counts: rep.counts, undocumented: rep.undocumented.map((u) => [u.seed, u.base, u.llvm]), internal: rep.internal.map((u) => [u.seed, u.base, u.detail.split('\n')[0]]), stricter: rep.stricter.slice(0, 30).map((u) => [u.seed, u.base, u.ours]) }, null, 1));
    const s = seed + k;
    const base = corpus[k % corpus.length];
    const text = mutateLL(base.text, s);
    const ours = ourVerdictLL(text);
    bump(ours.outcome);
    if (ours.outcome === 'internal-error' || ours.outcome === 'timeout') {
      rep.internal.push({ seed: s, base: base.name, detail: ours.detail, text });
      continue;
    }
    if (!withLlvm) continue;
    const llvm = llvmAsVerdict(text);
    const weAccept = ours.outcome === 'accepted';
    if (weAccept && llvm === null) bump('both-accept');
    else if (!weAccept && llvm !== null) bump('both-reject');
    else if (weAccept) {
      const d = diffs.find((x) => x.re.test(llvm!) && (!x.onMetadataLine || pointsAtMetadata(llvm!, text)));
      if (d !== undefined) bump('ours-accept-llvm-rejects (documented)');
      else {
        bump('ours-accept-llvm-rejects (UNDOCUMENTED)');
        rep.undocumented.push({ seed: s, base: base.name, llvm: llvm!, text });
      }
    } else if (stricterDiffs.some((x) => x.re.test(ours.detail))) bump('ours-reject-llvm-accepts (documented)');
    else {
      bump('ours-reject-llvm-accepts');
      rep.stricter.push({ seed: s, base: base.name, ours: ours.detail });
    }
  }
  return rep;
}

export interface SyReport {
  counts: Record<string, number>;
  internal: { seed: number; base: string; detail: string; text: string }[];
}

export async function fuzzSysY(corpus: { name: string; text: string }[], n: number, seed: number): Promise<SyReport> {
  const rep: SyReport = { counts: {}, internal: [] };
  for (let k = 0; k < n; k++) {
    await breathe(k);
    const s = seed + k;
    const base = corpus[k % corpus.length];
    const text = mutateSysY(base.text, s);
    const v = ourVerdictSysY(text);
    rep.counts[v.outcome] = (rep.counts[v.outcome] ?? 0) + 1;
    if (v.outcome === 'internal-error' || v.outcome === 'timeout') rep.internal.push({ seed: s, base: base.name, detail: v.detail, text });
  }
  return rep;
}

export interface CorruptionReport {
  counts: Record<string, number>;
  /** opt-19 -passes=verify rejects, we accept: must be empty. */
  missed: { kind: Corruption; seed: number; base: string; llvm: string; text: string }[];
}

/** n semantic corruptions of the corpus, each judged by opt-19 -passes=verify and by us. */
export async function fuzzCorruptions(corpus: { name: string; text: string }[], n: number, seed: number): Promise<CorruptionReport> {
  const rep: CorruptionReport = { counts: {}, missed: [] };
  const bump = (k: string): void => void (rep.counts[k] = (rep.counts[k] ?? 0) + 1);
  for (let k = 0; k < n; k++) {
    await breathe(k);
    const kind = CORRUPTIONS[k % CORRUPTIONS.length];
    const base = corpus[(k * 7) % corpus.length];
    const text = corrupt(parseModule(base.text, base.name), kind, seed + k);
    if (text === null) {
      bump(`${kind}: no place`);
      continue;
    }
    const llvm = optVerifyVerdict(text);
    const ours = ourVerdictLL(text);
    const weReject = ours.outcome === 'rejected-parse' || ours.outcome === 'rejected-verify';
    if (ours.outcome === 'internal-error' || ours.outcome === 'timeout') {
      bump(`${kind}: INTERNAL ERROR`);
      rep.missed.push({ kind, seed: seed + k, base: base.name, llvm: llvm ?? '(accepted)', text: ours.detail });
    } else if (llvm === null) bump(`${kind}: llvm accepts (not a corruption)`);
    else if (weReject) bump(`${kind}: rejected by both`);
    else {
      bump(`${kind}: MISSED`);
      rep.missed.push({ kind, seed: seed + k, base: base.name, llvm, text });
    }
  }
  return rep;
}

/**
 * A sample through the CLI's error path (`verify`, `opt -O2`, `run --max-steps`): exit 0 or
 * 1, no internal error, no stack trace, and a failure that names a place. Returns problems.
 */
export async function cliSample(texts: { text: string; ext: '.ll' | '.sy' }[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ssakit-badinput-'));
  const problems: string[] = [];
  for (let k = 0; k < texts.length; k++) {
    await new Promise((r) => setImmediate(r));
    const { text, ext } = texts[k];
    const f = join(dir, `m${k}${ext}`);
    writeFileSync(f, text);
    const cmds = ext === '.ll' ? [['verify', f], ['opt', '-O2', f, '-o', '/dev/null'], ['run', '--max-steps', '200000', f]] : [['run', '--max-steps', '200000', f], ['compile', f, '-O2', '-o', '/dev/null']];
    for (const args of cmds) {
      const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'ssakit.js'), ...args], { encoding: 'utf8', input: '', timeout: 60_000 });
      const err = r.stderr ?? '';
      const what = `ssakit ${args.join(' ')}`;
      if (r.error !== undefined || r.signal !== null) problems.push(`${what}: timeout or signal ${r.signal}`);
      else if (/internal error/.test(err) || /\n\s+at .*:\d+:\d+\)?\n/.test(err)) problems.push(`${what}: ${err.slice(0, 400)}`);
      else if (args[0] !== 'run' && r.status !== 0 && r.status !== 1) problems.push(`${what}: exit ${r.status}`);
      // (`run` exits with main's result: 1 and nothing on stderr is the program's own exit code)
      else if (r.status === 1 && !(args[0] === 'run' && err === '') && !/^.+:\d+:\d+: error: |^.+: error: \d+ verifier problem|error: input module is broken|runtime error|ssakit: error:/m.test(err)) {
        problems.push(`${what}: unlocated failure: ${err.slice(0, 300)}`);
      }
    }
  }
  return problems;
}
