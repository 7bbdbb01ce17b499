/**
 * `ssakit opt`'s flags that opt-19 users reach for, through the built CLI (dist/ssakit.js),
 * each compared with what opt-19 prints for the same flag on the same input where the two
 * share it (#22):
 *
 *   -print-after=P, -print-before=P, -print-after-all, -print-before-all, -filter-print-funcs
 *   --print-changed[=quiet|diff|diff-quiet|cdiff]       -debug-pass-manager
 *   --print-pipeline-passes (and its round trip through -passes=)    --print-passes
 *   -O0 -O1 -O2 -O3 -Os -Oz                             typos, C files, dot --svg's stderr
 *
 * opt names a pass by its C++ class in banners (PromotePass), ssakit by its pipeline name
 * (mem2reg): the comparisons map one to the other with CLASS below. opt-19's function
 * pipeline runs every pass on one function before the next function, ssakit's runs each pass
 * over every function: dumps are compared function by function, in order.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTool, OPT } from '../helpers/llvm.js';
import { PIPELINES } from '../../src/passes/pipelines.js';

const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'dist/ssakit.js');
const dir = mkdtempSync(join(tmpdir(), 'ssakit-opt-flags-'));
const HAS_OPT = hasTool(OPT);
const NO_OPT = `${OPT} not found: skipping the comparison with opt-19 (apt-get install -y llvm-19)`;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function ssakit(args: string[], input = ''): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'utf8', cwd: dir, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function opt(args: string[]): Run {
  const r = spawnSync(OPT, args, { encoding: 'utf8', cwd: dir, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** opt-19's class names for the passes the comparisons use. */
const CLASS: Record<string, string> = {
  PromotePass: 'mem2reg',
  InstSimplifyPass: 'instsimplify',
  GlobalDCEPass: 'globaldce',
};

// Two functions that mem2reg and instsimplify change differently, and a dead internal one
// for globaldce. The tests read opt-19's own -S output of it (canonical text, which both
// tools print back unchanged), or this text when opt-19 is absent.
const SOURCE = `define i32 @f(i32 %a) {
entry:
  %x = alloca i32, align 4
  store i32 %a, ptr %x, align 4
  %v = load i32, ptr %x, align 4
  %r = add i32 %v, 0
  ret i32 %r
}

define i32 @g(i32 %b) {
entry:
  %y = mul i32 %b, 1
  %c = icmp sgt i32 %y, 10
  br i1 %c, label %big, label %small

big:
  %z = sub i32 %y, 0
  ret i32 %z

small:
  ret i32 %y
}

define internal i32 @dead(i32 %d) {
entry:
  ret i32 %d
}
`;

beforeAll(() => {
  if (!existsSync(CLI)) {
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(b.stderr);
  }
  writeFileSync(join(dir, 'src.ll'), SOURCE);
  if (HAS_OPT) {
    const r = opt(['-S', 'src.ll', '-o', 't.ll']);
    if (r.status !== 0) throw new Error(r.stderr);
  } else writeFileSync(join(dir, 't.ll'), SOURCE);
  writeFileSync(join(dir, 'prog.c'), 'int main(void) { return 0; }\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Dump {
  /** The banner with opt's class names replaced by pipeline names. */
  banner: string;
  /** The IR unit: a function name, `[module]`, or '' (At Start). */
  unit: string;
  body: string;
}

/**
 * The dumps of a -print-* log. opt-19's lines about its pass-manager adaptors (`*** IR Pass
 * PassManager<Function> on f ignored ***`) have no counterpart in ssakit and are dropped, and
 * so are `; ModuleID` lines (ssakit does not print that comment).
 */
function dumps(log: string): Dump[] {
  const out: Dump[] = [];
  for (const line of log.split('\n')) {
    const b = /^(?:; )?\*\*\* IR (?:Dump|Pass) .*\*\*\*$/.exec(line);
    if (b !== null) {
      let banner = line;
      for (const [cls, name] of Object.entries(CLASS)) banner = banner.replace(` ${cls} on `, ` ${name} on `);
      const unit = / on (\S+)(?: omitted because no change| filtered out)? \*\*\*$/.exec(banner)?.[1] ?? '';
      out.push({ banner, unit, body: '' });
    } else if (out.length > 0 && !line.startsWith('; ModuleID')) out[out.length - 1].body += line + '\n';
  }
  return out.filter((d) => !d.banner.endsWith(' ignored ***'));
}

/** The dumps of each unit, in order (see the file comment: the tools order functions differently). */
function byUnit(ds: Dump[]): Map<string, Dump[]> {
  const m = new Map<string, Dump[]>();
  for (const d of ds) m.set(d.unit, [...(m.get(d.unit) ?? []), d]);
  return m;
}

/**
 * The removed and added lines of a diff body, sorted: what changed, whatever the context
 * shown. opt-19's diff shows the body of each function (its `define` line, its `}` and the
 * blank line between functions are never part of it): those lines are left out of ours.
 */
function changedLines(body: string): string[] {
  return body
    .split('\n')
    .map((l) => l.replace(/\x1b\[\d+m/g, ''))
    .filter((l) => /^[-+]/.test(l) && !/^[-+](define .*|\}|)$/.test(l))
    .sort();
}

function expectSameDumps(ours: string, theirs: string, compare: (a: Dump, b: Dump) => void): void {
  const a = byUnit(dumps(ours));
  const b = byUnit(dumps(theirs));
  expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
  for (const [unit, list] of b) {
    const mine = a.get(unit)!;
    expect(mine.map((d) => d.banner), unit).toEqual(list.map((d) => d.banner));
    for (let i = 0; i < list.length; i++) compare(mine[i], list[i]);
  }
}

const sameText = (a: Dump, b: Dump) => expect(a.body.trimEnd(), a.banner).toBe(b.body.trimEnd());

// needs opt-19 (apt-get install -y llvm-19): opt's own output is the oracle here
describe.skipIf(!HAS_OPT)('-print-before/-after, -filter-print-funcs: as opt-19 prints them', () => {
  const cases: string[][] = [
    ['-print-after-all'],
    ['-print-before-all'],
    ['-print-after=mem2reg'],
    ['-print-before=instsimplify'],
    ['-print-after=mem2reg,instsimplify', '-filter-print-funcs=g'],
    ['-print-after-all', '-filter-print-funcs=f,g'],
  ];
  for (const flags of cases) {
    it(flags.join(' '), () => {
      const ours = ssakit(['opt', '-passes=mem2reg,instsimplify', ...flags, 't.ll', '-disable-output']);
      const theirs = opt(['-passes=mem2reg,instsimplify', ...flags, 't.ll', '-disable-output']);
      expect(ours.status, ours.stderr).toBe(0);
      expect(theirs.status, theirs.stderr).toBe(0);
      expect(dumps(ours.stderr).length).toBeGreaterThan(0);
      expectSameDumps(ours.stderr, theirs.stderr, sameText);
    });
  }

  it('-print-module-scope: the whole module in each dump', () => {
    // one pass, so that both tools have run it on the same functions at each dump
    const ours = ssakit(['opt', '-passes=mem2reg', '-print-after-all', '-print-module-scope', 't.ll', '-disable-output']);
    const theirs = opt(['-passes=mem2reg', '-print-after-all', '-print-module-scope', 't.ll', '-disable-output']);
    expect(ours.stderr).toMatch(/define internal i32 @dead/);
    expectSameDumps(ours.stderr, theirs.stderr, sameText);
  });

  it('a module pass dumps the module, `on [module]`', () => {
    const ours = ssakit(['opt', '-passes=globaldce', '-print-after=globaldce', 't.ll', '-disable-output']);
    const theirs = opt(['-passes=globaldce', '-print-after=globaldce', 't.ll', '-disable-output']);
    expect(dumps(ours.stderr).map((d) => d.banner)).toEqual(['; *** IR Dump After globaldce on [module] ***']);
    expectSameDumps(ours.stderr, theirs.stderr, sameText);
  });
});

// needs opt-19 (apt-get install -y llvm-19): opt's own output is the oracle here
describe.skipIf(!HAS_OPT)('--print-changed: as opt-19 prints it', () => {
  for (const mode of ['', '=quiet']) {
    it(`--print-changed${mode}: the whole IR of each change, the same dumps as opt-19`, () => {
      const ours = ssakit(['opt', '-passes=mem2reg,instsimplify,globaldce', `--print-changed${mode}`, 't.ll', '-disable-output']);
      const theirs = opt(['-passes=module(function(mem2reg,instsimplify),globaldce)', `--print-changed${mode}`, 't.ll', '-disable-output']);
      expect(ours.status, ours.stderr).toBe(0);
      expectSameDumps(ours.stderr, theirs.stderr, sameText);
      if (mode === '') expect(ours.stderr).toMatch(/^\*\*\* IR Dump After mem2reg on g omitted because no change \*\*\*$/m);
    });
  }

  for (const [mode, filter] of [
    ['', '-filter-passes=instsimplify'],
    ['=quiet', '-filter-passes=instsimplify'],
    ['=diff', '-filter-passes=instsimplify'],
    ['', '-filter-print-funcs=g'],
    ['=diff-quiet', '-filter-print-funcs=g'],
  ]) {
    it(`--print-changed${mode} ${filter}: the others are filtered out`, () => {
      const ours = ssakit(['opt', '-passes=mem2reg,instsimplify', `--print-changed${mode}`, filter, 't.ll', '-disable-output']);
      const theirs = opt(['-passes=mem2reg,instsimplify', `--print-changed${mode}`, filter, 't.ll', '-disable-output']);
      expect(ours.status, ours.stderr).toBe(0);
      if (!mode.endsWith('quiet')) expect(ours.stderr).toMatch(/^\*\*\* IR Dump After mem2reg on f filtered out \*\*\*$/m);
      expectSameDumps(ours.stderr, theirs.stderr, (a, b) => (mode.includes('diff') && a.unit !== '' ? expect(changedLines(a.body)).toEqual(changedLines(b.body)) : sameText(a, b)));
    });
  }

  for (const mode of ['diff', 'diff-quiet', 'cdiff', 'cdiff-quiet']) {
    it(`--print-changed=${mode}: standard unified hunks that remove and add the lines opt-19's diff does`, () => {
      const ours = ssakit(['opt', '-passes=mem2reg,instsimplify,globaldce', `--print-changed=${mode}`, 't.ll', '-disable-output']);
      const theirs = opt(['-passes=module(function(mem2reg,instsimplify),globaldce)', `--print-changed=${mode}`, 't.ll', '-disable-output']);
      expect(ours.status, ours.stderr).toBe(0);
      expectSameDumps(ours.stderr, theirs.stderr, (a, b) => {
        if (a.unit === '') return sameText(a, b); // At Start: the module
        expect(changedLines(a.body), a.banner).toEqual(changedLines(b.body));
        // hunks as `diff -u` gives them: a header per hunk, and each line ' ', '-' or '+'
        const lines = a.body.replace(/\x1b\[\d+m/g, '').trimEnd().split('\n');
        if (lines.length > 0 && lines[0] !== '') {
          expect(lines[0]).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@$/);
          for (const l of lines) expect(l).toMatch(/^(@@ .* @@|[ +-].*)$/);
        }
      });
      // colour as opt-19's cdiff: red removed lines, green added ones
      if (mode.startsWith('cdiff')) {
        expect(ours.stderr).toContain('\x1b[31m-  %x = alloca i32, align 4\x1b[0m');
        expect(ours.stderr).toContain('\x1b[32m+  %r = add i32 %a, 0\x1b[0m');
      } else expect(ours.stderr).not.toContain('\x1b[');
    });
  }

  it('--print-changed=diff: the hunks GNU diff -u prints for the same texts (one per separate change)', () => {
    // instsimplify changes @h in two places 9 lines apart: two hunks with 3 lines of context
    const calls = Array.from({ length: 8 }, (_, i) => `  call void @use(i32 ${i})`).join('\n');
    writeFileSync(join(dir, 'far.ll'), `declare void @use(i32)\n\ndefine i32 @h(i32 %p) {\nentry:\n  %a = add i32 %p, 0\n  call void @use(i32 %a)\n${calls}\n  %b = mul i32 %a, 1\n  ret i32 %b\n}\n`);
    const full = dumps(ssakit(['opt', '-passes=instsimplify', '--print-changed', 'far.ll', '-disable-output']).stderr);
    const before = full[0].body.slice(full[0].body.indexOf('define i32 @h'));
    const after = full.find((d) => d.unit === 'h')!.body;
    writeFileSync(join(dir, 'before.txt'), before.trimEnd() + '\n');
    writeFileSync(join(dir, 'after.txt'), after.trimEnd() + '\n');
    const gnu = spawnSync('diff', ['-U3', 'before.txt', 'after.txt'], { cwd: dir, encoding: 'utf8' });
    if (gnu.error) return; // no diff(1) on this machine
    const expected = gnu.stdout.split('\n').slice(2).join('\n').trimEnd(); // without the --- / +++ lines
    const ours = ssakit(['opt', '-passes=instsimplify', '--print-changed=diff-quiet', 'far.ll', '-disable-output']);
    const h = dumps(ours.stderr).find((d) => d.unit === 'h')!;
    expect(h.body.trimEnd()).toBe(expected);
    expect(h.body.match(/^@@ .* @@$/gm)).toHaveLength(2);
    if (HAS_OPT) {
      const theirs = opt(['-passes=instsimplify', '--print-changed=diff-quiet', 'far.ll', '-disable-output']);
      expect(changedLines(h.body)).toEqual(changedLines(dumps(theirs.stderr).find((d) => d.unit === 'h')!.body));
    }
  });
});

// needs opt-19 (apt-get install -y llvm-19): opt's own output is the oracle here
describe.skipIf(!HAS_OPT)('-debug-pass-manager', () => {
  it('names each pass execution and its instruction count as opt-19 does', () => {
    const ours = ssakit(['opt', '-passes=mem2reg,instsimplify,globaldce', '-debug-pass-manager', 't.ll', '-disable-output']);
    const theirs = opt(['-passes=module(function(mem2reg,instsimplify),globaldce)', '-debug-pass-manager', 't.ll', '-disable-output']);
    expect(ours.status, ours.stderr).toBe(0);
    const runs = (log: string, unit: string) =>
      log
        .split('\n')
        .filter((l) => l.startsWith('Running pass: ') && l.includes(` on ${unit}`) && !l.includes('VerifierPass'))
        .map((l) => Object.entries(CLASS).reduce((s, [cls, name]) => s.replace(`: ${cls} on`, `: ${name} on`), l));
    for (const unit of ['f ', 'g ', 'dead ', '[module]']) expect(runs(ours.stderr, unit), unit).toEqual(runs(theirs.stderr, unit));
    expect(runs(ours.stderr, 'f ')).toEqual(['Running pass: mem2reg on f (5 instructions)', 'Running pass: instsimplify on f (2 instructions)']);
  });

  it('names the analyses computed and those a CFG change invalidates, where opt-19 does', () => {
    // mem2reg needs the dominator tree; simplifycfg then merges the two blocks
    writeFileSync(join(dir, 'k.ll'), 'define i32 @k(i32 %a) {\nentry:\n  %x = alloca i32\n  store i32 %a, ptr %x\n  br label %next\nnext:\n  %v = load i32, ptr %x\n  ret i32 %v\n}\n');
    const ours = ssakit(['opt', '-passes=mem2reg,simplifycfg', '-debug-pass-manager', 'k.ll', '-disable-output']).stderr;
    const lines = ours.split('\n');
    const at = (l: string) => lines.indexOf(l);
    expect(at('Running pass: mem2reg on k (5 instructions)')).toBe(0);
    expect(at('Running analysis: domtree on k')).toBeGreaterThan(0);
    expect(at('Running pass: simplifycfg on k (2 instructions)')).toBeGreaterThan(at('Running analysis: domtree on k'));
    expect(at('Invalidating analysis: domtree on k')).toBeGreaterThan(at('Running pass: simplifycfg on k (2 instructions)'));
    if (HAS_OPT) {
      const theirs = opt(['-passes=mem2reg,simplifycfg', '-debug-pass-manager', 'k.ll', '-disable-output']).stderr.split('\n');
      const t = (l: string) => theirs.indexOf(l);
      expect(t('Running pass: PromotePass on k (5 instructions)')).toBeLessThan(t('Running analysis: DominatorTreeAnalysis on k'));
      expect(t('Running pass: SimplifyCFGPass on k (2 instructions)')).toBeLessThan(t('Invalidating analysis: DominatorTreeAnalysis on k'));
    }
  });
});

describe('--print-pipeline-passes', () => {
  it('prints each standard level in a form -passes= accepts back: the same passes, the same output', () => {
    const input = join(ROOT, 'examples/hello.ll');
    for (const lvl of ['0', '1', '2', '3', 's', 'z']) {
      const p = ssakit(['opt', `-O${lvl}`, '--print-pipeline-passes']);
      expect(p.status, p.stderr).toBe(0);
      const text = p.stdout.trimEnd();
      const again = ssakit(['opt', `-passes=${text}`, '--print-pipeline-passes']);
      expect(again.stdout.trimEnd(), `-O${lvl}`).toBe(text);
      if (lvl === '2') {
        const a = ssakit(['opt', '-O2', input]);
        const b = ssakit(['opt', `-passes=${text}`, input]);
        expect(a.status, a.stderr).toBe(0);
        expect(b.stdout).toBe(a.stdout);
      }
    }
  });

  it('-O3 is -O2; -Os and -Oz differ from it only in the parameters pipelines.ts documents', () => {
    const pl = (l: string) => ssakit(['opt', `-O${l}`, '--print-pipeline-passes']).stdout;
    expect(pl('3')).toBe(pl('2'));
    expect(pl('s')).toBe(pl('2').replaceAll(/\binline\b/g, 'inline<threshold=20>'));
    expect(pl('z')).toBe(pl('2').replaceAll(/\binline\b/g, 'inline<threshold=7>').replaceAll('loop-rotate', 'loop-rotate<header-size=0>'));
    expect(pl('0')).toBe('\n');
    expect(PIPELINES.O3).toBe(PIPELINES.O2);
  });

  // needs opt-19 (apt-get install -y llvm-19): opt's own output is the oracle here
  it.skipIf(!HAS_OPT)('nests as opt-19 does, and opt-19 reads the form back to itself', () => {
    // passes both tools have, with no parameters in opt-19's printing
    const pipeline = 'module(function(mem2reg,instsimplify),globaldce,function(sccp),ipsccp,deadargelim,function(tailcallelim,adce),globalopt,function(dce))';
    const ours = ssakit(['opt', `-passes=${pipeline}`, '--print-pipeline-passes']);
    const theirs = opt([`-passes=${pipeline}`, '--print-pipeline-passes', 't.ll', '-disable-output']);
    expect(ours.status, ours.stderr).toBe(0);
    expect(theirs.status, theirs.stderr).toBe(0);
    // opt appends its implicit verifier
    expect(`${ours.stdout.trimEnd()},verify`).toBe(theirs.stdout.trimEnd());
    const back = opt([`-passes=${ours.stdout.trimEnd()}`, '--print-pipeline-passes', 't.ll', '-disable-output']);
    expect(back.stdout).toBe(theirs.stdout);
  });

  it('keeps parameters, repeat<N> and fixpoint<N>', () => {
    const text = 'function(simplifycfg,repeat<2>(instsimplify,dce)),inline<threshold=30>,fixpoint<4>(function(sccp),inline)';
    const r = ssakit(['opt', `-passes=${text}`, '--print-pipeline-passes']);
    expect(r.stdout).toBe(text + '\n');
  });
});

describe('-O levels as opt spells them', () => {
  it('-O2 and -passes together are refused as opt-19 refuses them, with the pipeline to write instead', () => {
    const r = ssakit(['opt', '-O2', '-passes=dce', 't.ll']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("-passes='default<O2>,dce'");
    if (HAS_OPT) expect(opt(['-O2', '-passes=dce', 't.ll', '-disable-output']).status).toBe(1);
  });

  it('an unknown level is an error naming the levels, without the help', () => {
    const r = ssakit(['opt', '-O4', 't.ll']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/-O4 is not an optimization level: use -O0, -O1, -O2, -O3, -Os or -Oz/);
    expect(r.stderr).not.toMatch(/Usage:/);
    if (HAS_OPT) expect(opt(['-O4', 't.ll', '-disable-output']).status).toBe(1);
  });

  it('-Os, -Oz, --O3 run', () => {
    for (const f of ['-Os', '-Oz', '--O3', '-O0']) {
      const r = ssakit(['opt', f, 't.ll']);
      expect(r.status, `${f}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/define i32 @f/);
    }
  });
});

describe('--print-passes', () => {
  const listing = () => ssakit(['opt', '--print-passes']).stdout;

  it('lists every pass -passes= accepts, under opt-19 headings', () => {
    const text = listing();
    expect(text).toMatch(/^Module passes:\n/);
    expect(text).toMatch(/^Function passes:$/m);
    const names = text.split('\n').filter((l) => l.startsWith('  ') && !l.includes('<')).map((l) => l.trim());
    expect(names).toContain('mem2reg');
    expect(names).toContain('inline');
    const accepted = names.filter((n) => n !== 'print'); // print<analysis> needs its parameter
    const r = ssakit(['opt', `-passes=${accepted.join(',')}`, '--print-pipeline-passes']);
    expect(r.status, r.stderr).toBe(0);
  });

  // needs opt-19 (apt-get install -y llvm-19): opt's own output is the oracle here
  it.skipIf(!HAS_OPT)('a pass both tools have is a module pass for both, or a function pass for both', () => {
    const section = (text: string) => {
      const m = new Map<string, string>();
      let head = '';
      for (const l of text.split('\n')) {
        if (/^\S.*:$/.test(l)) head = l;
        else if (l.startsWith('  ')) {
          const name = l.trim().replace(/<.*$/, '');
          if (!m.has(name)) m.set(name, head); // its first section: the one without "with params"
        }
      }
      return m;
    };
    const ours = section(listing());
    const theirs = section(opt(['--print-passes']).stdout);
    let shared = 0;
    for (const [name, head] of ours) {
      const t = theirs.get(name);
      // opt's plain `print` prints the module; ssakit's is print<analysis>, opt's print<scalar-evolution> is a function pass too
      if (t === undefined || /analyses/.test(t) || name === 'print') continue;
      shared++;
      // ssakit has no CGSCC or loop pass managers: opt's CGSCC passes are module passes here,
      // its loop passes function passes
      const kind = /^(Module|CGSCC) passes/.test(t) ? 'Module passes:' : 'Function passes:';
      expect(head, name).toBe(kind);
    }
    expect(shared).toBeGreaterThan(20);
  });
});

describe('errors a user meets first', () => {
  it('a --flag=value typo: did you mean, exit 1, no help dump', () => {
    for (const typo of ['-print-chnged=diff', '--print-chnged=diff', '--print-after-al']) {
      const r = ssakit(['opt', typo, 't.ll']);
      expect(r.status, typo).toBe(1);
      expect(r.stderr).toMatch(/^ssakit: error: unknown option '--print-(chnged|after-al)'/);
      expect(r.stderr).toMatch(/Did you mean --print-(changed|after-all)\?/);
      expect(r.stderr).not.toMatch(/Usage:|Options:/);
    }
  });

  it('a misspelt pass name, in -passes= or -print-after=, gets a suggestion', () => {
    const a = ssakit(['opt', '-passes=mem2rg', 't.ll']);
    expect(a.status).toBe(1);
    expect(a.stderr).toMatch(/unknown pass name 'mem2rg' \(did you mean 'mem2reg'\?\)/);
    const b = ssakit(['opt', '-passes=mem2reg', '-print-after=instsimplfy', 't.ll']);
    expect(b.status).toBe(1);
    expect(b.stderr).toMatch(/-print-after: unknown pass name 'instsimplfy' \(did you mean 'instsimplify'\?\)/);
    expect(a.stderr + b.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('an invalid --print-changed mode names the modes', () => {
    const r = ssakit(['opt', '--print-changed=bogus', 't.ll']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Allowed choices are changed, quiet, diff, diff-quiet, cdiff, cdiff-quiet/);
  });

  it('a C file given to run or opt: compile it with clang-19 -S -emit-llvm', () => {
    for (const cmd of ['run', 'opt', 'verify', 'analyze']) {
      const r = ssakit([cmd, 'prog.c']);
      expect(r.status, cmd).toBe(1);
      expect(r.stderr).toMatch(/^ssakit: error: prog\.c: C is not accepted: compile it with clang-19 -S -emit-llvm prog\.c -o prog\.ll/);
      expect(r.stderr).not.toMatch(/unexpected character/);
    }
  });

  it('C on stdin, or in a file not named .c: the parse error says it looks like C and what to do', () => {
    for (const cmd of ['run', 'opt']) {
      const r = ssakit([cmd, '-'], '// a program\n#include <stdio.h>\nint main(void) { return 0; }\n');
      expect(r.status, cmd).toBe(1);
      expect(r.stderr).toMatch(/^(<stdin>|-):1:1: error: /);
      expect(r.stderr).toMatch(/note: this looks like C, and C is not accepted: compile it with clang-19 -S -emit-llvm/);
    }
    // IR with a syntax error is not C
    const ir = ssakit(['opt', '-'], 'define i32 @main() {\n  ret i32 %\n}\n');
    expect(ir.status).toBe(1);
    expect(ir.stderr).not.toMatch(/looks like C/);
  });

  it('dot --svg writes the SVG and nothing on stderr (no ExperimentalWarning)', () => {
    const r = ssakit(['dot', '--svg', '--function', 'f', 't.ll']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/<svg/);
    expect(r.stderr).toBe('');
  });
});

it('--help lists the new flags and the levels', () => {
  const h = ssakit(['opt', '--help']).stdout;
  for (const f of ['--print-pipeline-passes', '--print-passes', '--filter-passes', '--print-after <passes>', '--print-before <passes>', '--print-before-all', '--filter-print-funcs', '--print-changed [mode]', '--debug-pass-manager', '-Os']) {
    expect(h, f).toContain(f);
  }
  expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('--print-pipeline-passes');
});
