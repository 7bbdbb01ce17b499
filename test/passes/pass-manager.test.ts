/**
 * The pass manager itself: pipeline syntax, the instrumentation options (--verify-each,
 * --print-after-all, --print-changed, --time-passes, --stats, --opt-bisect-limit), the
 * analysis cache and its invalidation, and how fixpoint<N> iterates.
 */
import { describe, expect, it } from 'vitest';
import type { Function } from '../../src/ir/function.js';
import { verifyFunction, verifyModule } from '../../src/analysis/verifier.js';
import { CFGAnalysis, DominatorTreeAnalysis } from '../../src/pm/analyses.js';
import { ensureRegistered, parsePipeline, PassManager, PipelineError, runPipeline, VerifyEachError } from '../../src/passes/index.js';
import type { FunctionPass, PassContext, PassResult, Preserved } from '../../src/pm/pass.js';
import { PIPELINES } from '../../src/passes/pipelines.js';
import { definePass, param, parseParams, type ParamSpecs } from '../../src/pm/define-pass.js';
import { passInfo } from '../../src/pm/registry.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';

const TWO_FUNCTIONS = `
define i32 @f(i32 %a) {
entry:
  %x = alloca i32
  store i32 %a, ptr %x
  %v = load i32, ptr %x
  %r = add i32 %v, 0
  ret i32 %r
}
define i32 @g(i32 %b) {
entry:
  %y = mul i32 %b, 1
  ret i32 %y
}`;

const verify = (m: Parameters<typeof verifyModule>[0], fn?: Function) =>
  (fn !== undefined ? verifyFunction(fn) : verifyModule(m)).map((e) => e.message);

function fnPass(name: string, run: (fn: Function, ctx: PassContext) => PassResult): FunctionPass {
  return { kind: 'function', name, run };
}

/** A visible change for the made-up passes that say they changed something (a round that ends where it began is a fixpoint). */
function touch(fn: Function, label: string): void {
  fn.firstBlock!.name = label;
}

describe('pipeline strings (opt syntax)', () => {
  ensureRegistered();
  const names = (text: string): unknown => {
    const walk = (nodes: ReturnType<typeof parsePipeline>): unknown[] =>
      nodes.map((n) => ('pass' in n ? n.pass.name : 'repeat' in n ? { repeat: n.repeat, body: walk(n.body) } : { fixpoint: n.fixpoint, body: walk(n.body) }));
    return walk(parsePipeline(text));
  };

  it('parses lists, function(...) and module(...) adaptors, repeat and fixpoint', () => {
    expect(names('mem2reg,sccp,adce')).toEqual(['mem2reg', 'sccp', 'adce']);
    expect(names('function(sccp,adce),module(inline)')).toEqual(['sccp', 'adce', 'inline']);
    expect(names('repeat<2>(dce),fixpoint<3>(instcombine,simplifycfg)')).toEqual([
      { repeat: 2, body: ['dce'] },
      { fixpoint: 3, body: ['instcombine', 'simplifycfg'] },
    ]);
  });

  it('expands the standard pipelines by name', () => {
    const o1 = names('default<O1>');
    expect(o1).toEqual(PIPELINES.O1.split(','));
    expect(names('O1')).toEqual(o1);
    const o2 = JSON.stringify(names('default<O2>'));
    for (const p of ['mem2reg', 'inline', 'gvn', 'licm', 'indvars', 'loop-unroll', 'pre', 'jump-threading']) expect(o2).toContain(`"${p}"`);
  });

  it('names the bad part of a broken pipeline', () => {
    expect(() => parsePipeline('mem2reg,nosuchpass')).toThrow(PipelineError);
    expect(() => parsePipeline('mem2reg,nosuchpass')).toThrow(/unknown pass name 'nosuchpass'/);
    expect(() => parsePipeline('function(sccp')).toThrow(/expected '\)'/);
    expect(() => parsePipeline('repeat<x>(dce)')).toThrow(/repeat needs a count/);
    expect(() => parsePipeline('default<O7>')).toThrow(/unknown pipeline/);
  });
});

describe('pass parameters (definePass)', () => {
  interface O { threshold: number; maxTripCount: number; select: boolean; mode: 'a' | 'b' | 'off' }
  const specs: ParamSpecs<O> = {
    threshold: param.int('threshold', 10, ''),
    maxTripCount: param.int('max-trip-count', 20, ''),
    select: param.flag('select', true, '', ['speculate']),
    mode: param.choice('mode', ['a', 'b', 'off'] as const, 'a', '', 'off'),
  };
  const expected = '(expected threshold=N, max-trip-count=N, [no-]select, no-mode, mode=a|b|off)';

  it('every parameter has its default; items separated by semicolons set them; the last one wins', () => {
    expect(parseParams<O>('p', specs, '')).toEqual({ threshold: 10, maxTripCount: 20, select: true, mode: 'a' });
    expect(parseParams<O>('p', specs, 'threshold=5; max-trip-count=70;threshold=6;no-select;mode=b')).toEqual({ threshold: 6, maxTripCount: 70, select: false, mode: 'b' });
    expect(parseParams<O>('p', specs, 'no-speculate;no-mode')).toEqual({ threshold: 10, maxTripCount: 20, select: false, mode: 'off' });
  });

  it('unknown names, values of the wrong type and inherited names are errors at the item', () => {
    for (const bad of ['bogus=1', 'threshold', 'threshold=-1', 'threshold=1.5', 'constructor=1', 'toString=2', 'mode=c', 'no-threshold', 'select=1']) {
      let err: unknown = null;
      try {
        parseParams<O>('p', specs, `threshold=1; ${bad}`);
      } catch (e) {
        err = e;
      }
      expect(err, bad).toMatchObject({ name: 'ParamError', message: `p: unknown parameter '${bad}' ${expected}`, offset: 13 });
    }
    expect(() => parseParams('p', undefined, 'x')).toThrow("p: unknown parameter 'x' (the pass takes none)");
  });

  it('a bad parameter is a pipeline error located in the pipeline string, never an internal error or ignored', () => {
    ensureRegistered();
    const located = (text: string): string => {
      try {
        parsePipeline(text);
      } catch (e) {
        expect(e).toBeInstanceOf(PipelineError);
        return (e as Error).message;
      }
      throw new Error(`'${text}' was accepted`);
    };
    expect(located('sccp,indvars<bogus>')).toBe(
      "indvars: unknown parameter 'bogus' (expected no-strength-reduce, strength-reduce=never|profitable|always, exit-values=never|cheap|always, [no-]lftr, [no-]widen)\n  sccp,indvars<bogus>\n               ^",
    );
    // mem2reg's parameters are the textbook placements (#21); anything else is located
    expect(located('mem2reg<bogus>')).toBe("mem2reg: unknown parameter 'bogus' (expected [no-]minimal, [no-]semi-pruned, [no-]pruned)\n  mem2reg<bogus>\n          ^");
    expect(located('dce<minimal>')).toBe("dce: unknown parameter 'minimal' (the pass takes none)\n  dce<minimal>\n      ^");
    expect(located('fixpoint<abc>(dce)')).toBe('fixpoint needs a count: fixpoint<N>(...)\n  fixpoint<abc>(dce)\n           ^');
    expect(located('simplifycfg<no-select; phi-limit=x>')).toMatch(/unknown parameter 'phi-limit=x'.*\n  simplifycfg<no-select; phi-limit=x>\n {25}\^$/);
    expect(located('function<x>(dce)')).toMatch(/function\(\.\.\.\) takes no parameter 'x'/);
    expect(located('O2<x>')).toMatch(/pipeline 'O2' takes no parameter 'x'/);
    expect(located('dce,nosuch')).toBe("unknown pass name 'nosuch' (run 'ssakit opt --print-passes' for the list)\n  dce,nosuch\n      ^");
  });

  it('print<scalar-evolution> is a definePass with a required word parameter, named by its instance', () => {
    ensureRegistered();
    const pass = passInfo('print')!.create('scalar-evolution');
    expect(pass).toMatchObject({ kind: 'function', name: 'print<scalar-evolution>' });
    expect(() => parsePipeline('print<bogus>')).toThrow(PipelineError);
    expect(() => parsePipeline('print<bogus>')).toThrow(/print: unknown parameter 'bogus' \(expected scalar-evolution\|domtree\|postdomtree\|loops\)/);
    expect(() => parsePipeline('print')).toThrow(/print: missing parameter \(expected print<scalar-evolution\|domtree\|postdomtree\|loops>\)/);
  });

  it('a pass declared with definePass runs with its parsed parameters', () => {
    const seen: O[] = [];
    const info = definePass<O>({ name: 'probe', description: 'records its parameters', params: specs, run: (_fn, _ctx, o) => (seen.push(o), { changed: false }) });
    const pass = info.create('threshold=3');
    expect(pass).toMatchObject({ kind: 'function', name: 'probe' });
    expect(info.params!.map((p) => p.name)).toEqual(['threshold', 'max-trip-count', 'select', 'mode']);
    const m = parseModule(TWO_FUNCTIONS);
    new PassManager(m).run([{ pass }]);
    expect(seen).toEqual([
      { threshold: 3, maxTripCount: 20, select: true, mode: 'a' },
      { threshold: 3, maxTripCount: 20, select: true, mode: 'a' },
    ]);
  });
});

describe('instrumentation', () => {
  it('--verify-each names the pass that broke the IR and shows the module', () => {
    const m = parseModule(TWO_FUNCTIONS);
    // a broken pass: deletes the terminator of every block
    const breaker = fnPass('breaker', (fn) => {
      for (const bb of fn.blocks()) bb.terminator()?.eraseFromParent();
      return { changed: true };
    });
    const pm = new PassManager(m, { verifyEach: true, verify, log: () => {} });
    let err: unknown = null;
    try {
      pm.run([{ pass: breaker }]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(VerifyEachError);
    const e = err as VerifyEachError;
    expect(e.pass).toBe('breaker');
    expect(e.message).toMatch(/broken after pass 'breaker'/);
    expect(e.message).toMatch(/terminator/);
    expect(e.ir).toMatch(/define i32 @f/);
  });

  it('--print-after-all dumps every pass on every function; --print-changed=diff-quiet only changes, as a diff', () => {
    const m = parseModule(TWO_FUNCTIONS);
    let all = '';
    runPipeline(m, 'mem2reg,instsimplify', { printAfterAll: true, log: (t) => (all += t) });
    // opt-19's banner, with the pass's pipeline name (opt prints its class name, PromotePass)
    expect(all.match(/^; \*\*\* IR Dump After mem2reg on f \*\*\*$/gm)).toHaveLength(1);
    expect(all.match(/^; \*\*\* IR Dump After mem2reg on g \*\*\*$/gm)).toHaveLength(1);
    expect(all.match(/^; \*\*\* IR Dump After instsimplify on g \*\*\*$/gm)).toHaveLength(1);

    const m2 = parseModule(TWO_FUNCTIONS);
    let changed = '';
    runPipeline(m2, 'mem2reg,instsimplify', { printChanged: 'diff-quiet', log: (t) => (changed += t) });
    // mem2reg changes only @f (@g has no alloca); instsimplify removes x+0 and y*1
    expect(changed).toMatch(/^\*\*\* IR Dump After mem2reg on f \*\*\*$/m);
    expect(changed).not.toMatch(/mem2reg on g/);
    expect(changed).toMatch(/^\*\*\* IR Dump After instsimplify on g \*\*\*$/m);
    expect(changed).toMatch(/^-  %x = alloca i32$/m);
    expect(changed).toMatch(/^-  %y = mul i32 %b, 1$/m);
    expect(changed).toMatch(/^\+  ret i32 %b$/m);
  });

  it('--time-passes tabulates runs per pass; --stats collects the counters passes keep', () => {
    const m = parseModule(TWO_FUNCTIONS);
    const pm = runPipeline(m, 'mem2reg,instsimplify,dce', { timePasses: true });
    const t = pm.timingReport();
    expect(t).toMatch(/Pass execution timing report/);
    expect(t).toMatch(/\s2\s+mem2reg$/m); // two functions: two runs
    expect(t).toMatch(/Total$/m);
    const s = pm.statsReport();
    expect(s).toMatch(/\s1 mem2reg\s+- allocas promoted/);
  });

  it('--opt-bisect-limit runs only the first N pass executions and logs the decisions', () => {
    const m = parseModule(TWO_FUNCTIONS);
    let log = '';
    runPipeline(m, 'mem2reg,instsimplify', { bisectLimit: 1, log: (t) => (log += t) });
    // opt-19's lines, with pipeline names for its class names
    expect(log).toMatch(/^BISECT: running pass \(1\) mem2reg on f$/m);
    expect(log).toMatch(/^BISECT: NOT running pass \(2\) mem2reg on g$/m);
    expect(log).toMatch(/^BISECT: NOT running pass \(4\) instsimplify on g$/m);
    const out = printModule(m);
    expect(out).not.toMatch(/alloca/); // the first execution (mem2reg on @f) ran
    expect(out).toMatch(/mul i32 %b, 1/); // instsimplify did not
  });
});

describe('analyses are cached and invalidated by what a pass preserves', () => {
  const counting = (preserved: Preserved) => {
    const seen: number[] = [];
    const pass = fnPass(`uses-domtree-${preserved}`, (fn, ctx) => {
      ctx.analyses.get(DominatorTreeAnalysis);
      ctx.analyses.get(CFGAnalysis);
      seen.push(1);
      return { changed: preserved !== 'all', preserved };
    });
    return pass;
  };

  it("'all' and 'cfg' keep the CFG and dominator tree (both CFG-only), 'none' drops them", () => {
    for (const [preserved, expected] of [
      ['all', 2],
      ['cfg', 2],
      ['none', 6],
    ] as const) {
      const m = parseModule(TWO_FUNCTIONS);
      const pm = new PassManager(m, {});
      const p = counting(preserved);
      pm.run([{ pass: p }, { pass: p }, { pass: p }]);
      // three runs on @f: CFG + dominator tree once, or both again after every run ('none')
      const f = m.getFunction('f')!;
      expect([preserved, pm.analysesOf(f).computed]).toEqual([preserved, expected]);
    }
  });
});

describe('fixpoint<N>', () => {
  it('repeats a function pipeline per function until that function stops changing, at most N rounds', () => {
    const m = parseModule(TWO_FUNCTIONS);
    const runs = new Map<string, number>();
    // changes @f twice, @g never
    const p = fnPass('twice-on-f', (fn) => {
      const n = (runs.get(fn.name) ?? 0) + 1;
      runs.set(fn.name, n);
      const changed = fn.name === 'f' && n <= 2;
      if (changed) touch(fn, `twice${n}`);
      return { changed, preserved: 'all' };
    });
    const pm = new PassManager(m, {});
    expect(pm.run([{ fixpoint: 5, body: [{ pass: p }] }])).toBe(true);
    expect(runs.get('f')).toBe(3); // two changing rounds, then one quiet round
    expect(runs.get('g')).toBe(1); // quiet at once: not rerun because @f kept changing
    runs.clear();
    const pm2 = new PassManager(parseModule(TWO_FUNCTIONS), {});
    const always = fnPass('always', (fn) => {
      runs.set(fn.name, (runs.get(fn.name) ?? 0) + 1);
      touch(fn, `always${runs.get(fn.name)}`);
      return { changed: true, preserved: 'all' };
    });
    pm2.run([{ fixpoint: 3, body: [{ pass: always }] }]);
    expect(runs.get('f')).toBe(3);
    expect(runs.get('g')).toBe(3);
  });

  it('skips a pass that found nothing on the same IR, unless print-after-all or bisection shows every run', () => {
    // a changes on its first two runs, b on its second, c never (log: pass and run number)
    const order = (instr: ConstructorParameters<typeof PassManager>[1]): string[] => {
      const log: string[] = [];
      const runs = { a: 0, b: 0, c: 0 };
      const counting = (name: 'a' | 'b' | 'c', changes: (n: number) => boolean): FunctionPass =>
        fnPass(name, (fn) => {
          const n = ++runs[name];
          log.push(`${name}${n}`);
          if (changes(n)) touch(fn, `${name}${n}`);
          return { changed: changes(n), preserved: 'all' };
        });
      const body = [counting('a', (n) => n <= 2), counting('b', (n) => n === 2), counting('c', () => false)];
      const m = parseModule(TWO_FUNCTIONS.slice(0, TWO_FUNCTIONS.indexOf('define i32 @g')));
      new PassManager(m, { log: () => {}, ...instr }).run([{ fixpoint: 5, body: body.map((pass) => ({ pass })) }]);
      return log;
    };
    // round 3 changes nothing: a and b run (each changed in round 2), but c last ran clean
    // after round 2's last change, on the IR as it still is, so it is skipped
    expect(order({})).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3']);
    const all = ['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3'];
    expect(order({ printAfterAll: true })).toEqual(all);
    expect(order({ bisectLimit: 100 })).toEqual(all);
  });

  it('stops when a round ends where it began (passes that undo each other, as loop-simplify and simplifycfg)', () => {
    const m = parseModule(TWO_FUNCTIONS);
    let runs = 0;
    // one renames the entry block, the other names it back: each says, truly, that it changed the IR
    const split = fnPass('split', (fn) => {
      runs++;
      fn.firstBlock!.name = 'tmp';
      return { changed: true, preserved: 'none' };
    });
    const fold = fnPass('fold', (fn) => {
      fn.firstBlock!.name = 'entry';
      return { changed: true, preserved: 'none' };
    });
    const log: string[] = [];
    new PassManager(m, { afterPass: (e) => log.push(`${e.pass}@${e.fn!.name}`) }).run([{ fixpoint: 10, body: [{ pass: split }, { pass: fold }] }]);
    expect(log).toEqual(['split@f', 'fold@f', 'split@g', 'fold@g']);
    expect(runs).toBe(2);
  });

  it('with a module pass at the end, later rounds revisit only the functions it changed', () => {
    const m = parseModule(TWO_FUNCTIONS);
    const runs = new Map<string, number>();
    const quiet = fnPass('quiet', (fn) => {
      runs.set(fn.name, (runs.get(fn.name) ?? 0) + 1);
      return { changed: false, preserved: 'all' };
    });
    // a module pass (as the inliner) that changes @f in its first two runs and says so
    let modRuns = 0;
    const touchF = {
      kind: 'module' as const,
      name: 'touch-f',
      run(mod: typeof m, ctx: { invalidate(f: Function): void }) {
        modRuns++;
        if (modRuns > 2) return { changed: false };
        ctx.invalidate(mod.getFunction('f')!);
        return { changed: true, preserved: 'none' as Preserved };
      },
    };
    expect(new PassManager(m, {}).run([{ fixpoint: 5, body: [{ pass: quiet }, { pass: touchF }] }])).toBe(true);
    expect(modRuns).toBe(3); // changed, changed, quiet: stop
    expect(runs.get('f')).toBe(3); // once per round
    expect(runs.get('g')).toBe(1); // never touched after the first round
  });

  it('reaches the same IR as writing the rounds out by hand', () => {
    const src = TWO_FUNCTIONS;
    const a = parseModule(src);
    runPipeline(a, 'mem2reg,fixpoint<3>(instcombine,simplifycfg,dce)');
    const b = parseModule(src);
    runPipeline(b, 'mem2reg,instcombine,simplifycfg,dce,instcombine,simplifycfg,dce');
    expect(printModule(a)).toBe(printModule(b));
    expect(printModule(a)).toMatch(/ret i32 %a/);
    expect(printModule(a).match(/ret i32/g)).toHaveLength(2);
  });
});
