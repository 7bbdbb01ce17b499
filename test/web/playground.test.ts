/**
 * The playground in a real Chromium, against the built static site: first load, every
 * example, graphs, the algorithm stepper, running a program, the share URL, errors
 * underlined, and a cancelled long job. Each test saves a screenshot in
 * test-results/playground/ (CI keeps that folder).
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSysY, createPassManager, ensureRegistered, parsePipeline, printFunction, printModule, runModule } from '../../src/index.js';
import { SHOTS, SKIP_REASON, pipelineVersion, setEditorText, startSite, waitCompiled, waitGraph, type Site } from './harness.js';

if (SKIP_REASON) console.warn(SKIP_REASON);

// Reason for skipIf: needs Debian's chromium (SKIP_REASON says which part is missing); .ci/run installs it.
describe.skipIf(SKIP_REASON !== '')('playground in Chromium', () => {
  let site: Site;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    site = await startSite();
    page = await site.browser.newPage({ viewport: { width: 1600, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });
  afterAll(async () => {
    await site?.close();
  });

  async function openFresh(hash = ''): Promise<void> {
    await page.goto(site.url + hash);
    await waitCompiled(page, 0, 60_000);
  }

  /** The library's own run of a pipeline on a SysY source: the unit (function, or module) step k ran on, printed before and after it. */
  function stepUnitTexts(src: string, pipeline: string, k: number): { before: string; after: string } {
    const m = compileSysY(src, 'input.sy', { ssa: 'braun' }).module!;
    let before = '';
    let after = '';
    let step = 0;
    let prev = new Map(m.functions.map((f) => [f.name, printFunction(f)]));
    let prevModule = printModule(m);
    ensureRegistered();
    createPassManager(m, {
      afterPass: (e) => {
        if (step === k) {
          before = e.fn ? prev.get(e.fn.name)! : prevModule;
          after = e.fn ? printFunction(e.fn) : printModule(m);
        }
        step++;
        if (step === k) {
          prev = new Map(m.functions.map((f) => [f.name, printFunction(f)]));
          prevModule = printModule(m);
        }
      },
    }).run(parsePipeline(pipeline));
    return { before, after };
  }

  /** The graph of the pipeline view as it is now (not the one drawn before the last compile or click). */
  const graphNodes = (kind?: string) => waitGraph(page, kind);

  it('first visit: sort.sy compiled at -O2, its pipeline view and its CFG', async () => {
    await openFresh();
    expect(await page.inputValue('#level')).toBe('default<O2>');
    expect(await page.textContent('#editor .cm-content')).toContain('int main');
    const steps = await page.locator('#steps li').count();
    expect(steps).toBeGreaterThan(5);
    expect(await page.textContent('#step-head')).toMatch(/changed/);
    // the step's IR before and after, side by side with the changes marked: with every fold
    // opened, the left side reads the IR the library's own -O2 run gave the step's function
    // (or module) before the step, and the right side the IR after it
    const k = Number(await page.getAttribute('#merge', 'data-step'));
    const { before, after } = stepUnitTexts(readFileSync('examples/sort.sy', 'utf8'), 'default<O2>', k);
    expect(await page.locator('#merge .r > .d, #merge .r > .a').count()).toBeGreaterThan(0);
    while ((await page.locator('#merge .fold').count()) > 0) await page.locator('#merge .fold').first().click();
    const side = (cls: string) => page.$$eval(`#merge .r > .${cls}:not(.e)`, (cs) => cs.map((c) => c.textContent).join('\n'));
    expect(await side('L')).toBe(before.replace(/\n$/, ''));
    expect(await side('R')).toBe(after.replace(/\n$/, ''));
    const g = await graphNodes();
    expect(g.nodes).toBe(g.blocks);
    expect(await page.textContent('#final-ir')).toMatch(/define .*@main/);
    await page.screenshot({ path: `${SHOTS}/01-first-visit.png` });
    expect(pageErrors).toEqual([]);
  });

  it('every example compiles with its pipeline', async () => {
    await openFresh();
    const ids = await page.$$eval('#example option', (os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(ids.length).toBeGreaterThanOrEqual(12);
    for (const id of ids) {
      const v = await pipelineVersion(page);
      await page.selectOption('#example', id);
      if (id !== (await page.inputValue('#example'))) throw new Error(`example ${id} not selected`);
      await waitCompiled(page, v);
      expect(await page.textContent('#errors'), `example ${id}`).toBe('');
      // the status says "working…" while a graph is computed for more than 150 ms: poll
      await expect.poll(() => page.textContent('#status'), { message: `example ${id}`, timeout: 30_000 }).toMatch(/^compiled/);
      const g = await graphNodes();
      expect(g.nodes, `CFG of example ${id}`).toBe(g.blocks);
    }
    await page.screenshot({ path: `${SHOTS}/02-last-example.png` });
  });

  // The page once showed, at a step, the graph and IR of the step selected before it: the
  // reply to the earlier graph request arrived after the new one was sent and was drawn under
  // the new step's label. Each reply is now drawn only if it answers the latest request.
  it("graphs at a pipeline step show that step's IR (the same as the library's own run of -O2), for a dense sample of the steps", { timeout: 400_000 }, async () => {
    await openFresh();
    const src = readFileSync('examples/sort.sy', 'utf8');
    const m = compileSysY(src, 'input.sy', { ssa: 'braun' }).module!;
    // the oracle: the library in Node, the function a step ran on (@main for a module pass) printed after it
    const after: { fn: string; module: boolean; text: string; changed: boolean }[] = [];
    ensureRegistered();
    createPassManager(m, {
      afterPass: (e) => {
        const f = e.fn ?? m.getFunction('main')!;
        after.push({ fn: f.name, module: e.fn === undefined, text: e.changed ? printFunction(f) : '', changed: e.changed });
      },
    }).run(parsePipeline('default<O2>'));
    // the list shows the executions that changed the IR (the selected one, the last change, among them)
    const changed = after.map((a, k) => ({ ...a, k })).filter((a) => a.changed);
    expect(await page.locator('#steps li').count()).toBe(changed.length);
    // every changed step, or about 40 spread over the whole pipeline, the first and the last among them
    const every = Math.max(1, Math.floor(changed.length / 40));
    const picked = changed.filter((_, j) => j % every === 0 || j === changed.length - 1);
    expect(picked.length).toBeGreaterThanOrEqual(Math.min(changed.length, 20));
    // the `; preds =` comments list predecessors in use-list order, which re-parsing the text may change
    const norm = (t: string) => t.replace(/\s+; preds = .*$/gm, '').trimEnd();
    for (const { fn, module, text, k } of picked) {
      // a function pass's step selects its function by itself; for a module pass, pick @main
      if (module && (await page.inputValue('#fn')) !== fn) await page.selectOption('#fn', fn);
      await page.click(`#steps li[data-step="${k}"]`);
      // the graph's IR panel shows this step and function, and the merge view this step (the
      // graph itself follows when Graphviz is done; its contents are checked by the tests below)
      await page.waitForFunction(
        ({ k, fn }) => {
          const ir = document.getElementById('graph-ir')!;
          return ir.dataset.version === document.body.dataset.pipelineVersion && ir.dataset.step === String(k) && ir.dataset.fn === fn && document.getElementById('merge')!.dataset.step === String(k);
        },
        { k, fn },
      );
      expect(await page.textContent('#graph-step')).toMatch(new RegExp(`^after step ${k + 1} \\(`));
      const shown = await page.$$eval('#graph-ir div', (ds) => ds.map((d) => (d.textContent === ' ' ? '' : d.textContent)).join('\n'));
      expect(norm(shown), `step ${k + 1} (${after[k].fn}) on @${fn}`).toBe(norm(text));
    }
  });

  it('graphs: CFG and dominator tree have one node per block; clicking a block highlights its IR', async () => {
    await openFresh();
    let v = await pipelineVersion(page);
    await page.selectOption('#example', 'chk');
    await waitCompiled(page, v);
    const cfg = await graphNodes();
    expect(cfg).toEqual({ nodes: 9, blocks: 9 }); // B0..B8
    await page.selectOption('#graph-kind', 'domtree');
    expect((await graphNodes('domtree')).nodes).toBe(9);
    expect(await page.textContent('#graph svg title')).toMatch(/ominator/);
    await page.locator('#graph g.node[data-block="B3"]').click();
    const hl = await page.$$eval('#graph-ir div.hl', (ds) => ds.map((d) => d.textContent));
    expect(hl[0]).toMatch(/^B3:/);
    expect(hl.join('\n')).toContain('br i1 %c, label %B1, label %B4');
    // and back: a line of B5 selects B5's node
    await page.locator('#graph-ir div', { hasText: 'label %B6, label %B8' }).click();
    expect(await page.$$eval('#graph g.node.sel', (ns) => ns.map((n) => (n as SVGElement).dataset.block))).toEqual(['B5']);
    await page.screenshot({ path: `${SHOTS}/03-graph-domtree.png` });
  });

  it('algorithm stepper: forward and back through the CHK frontier walk, blocks highlighted', async () => {
    await openFresh();
    const v = await pipelineVersion(page);
    await page.selectOption('#example', 'chk');
    await waitCompiled(page, v);
    await page.click('#tabs button[data-tab="stepper"]');
    // the trace the worker sends for this algorithm (not an earlier request's)
    await page.waitForSelector('#events[data-loaded^="df-runner "] li');
    const n = await page.locator('#events li').count();
    expect(n).toBeGreaterThan(5);
    expect(await page.textContent('#step-pos')).toBe(`step 1 of ${n}`);
    const first = await page.textContent('#step-text');
    for (let k = 0; k < 4; k++) await page.click('#step-next');
    expect(await page.textContent('#step-pos')).toBe(`step 5 of ${n}`);
    const fifth = await page.textContent('#step-text');
    expect(fifth).not.toBe(first);
    // the highlighted nodes are the blocks the step names
    const named = (fifth ?? '').match(/\bB\d\b/g) ?? [];
    // the graph is re-rendered by the worker after a step; poll until it shows the highlight
    const lit = () => page.$$eval('#graph g.node.hl', (ns) => ns.map((x) => (x as SVGElement).dataset.block).sort());
    await expect.poll(lit, { timeout: 15_000 }).toEqual([...new Set(named)].sort());
    await page.screenshot({ path: `${SHOTS}/04-stepper.png` });
    await page.click('#step-prev');
    await page.click('#step-prev');
    expect(await page.textContent('#step-pos')).toBe(`step 3 of ${n}`);
    await page.click('#step-first');
    expect(await page.textContent('#step-text')).toBe(first);
    await page.click('#step-last');
    expect(await page.textContent('#step-text')).toMatch(/DF\(B8\) = \{B7\}/);
  });

  it("algorithm stepper: a pipeline step's own pass trace (sort.sy at -O2)", async () => {
    await openFresh();
    await page.uncheck('#only-changed');
    const traced = page.locator('#steps li', { hasText: '-step trace' }).first();
    const label = (await traced.textContent()) ?? '';
    const n = Number(/(\d+)-step trace/.exec(label)![1]);
    await traced.click();
    await page.click('#tabs button[data-tab="stepper"]');
    await page.selectOption('#algorithm', 'pass');
    await page.waitForSelector('#events[data-loaded^="pass "] li');
    expect(await page.locator('#events li').count()).toBe(n);
    expect(await page.textContent('#step-pos')).toBe(`step 1 of ${n}`);
    await page.click('#step-next');
    expect(await page.textContent('#step-pos')).toBe(`step ${Math.min(2, n)} of ${n}`);
    await page.screenshot({ path: `${SHOTS}/04b-pass-trace.png` });
  });

  it("algorithm stepper: mem2reg's phi placement and renaming, on the allocas before the pipeline", async () => {
    await openFresh();
    let v = await pipelineVersion(page);
    await page.selectOption('#example', 'braun-while');
    await waitCompiled(page, v);
    v = await pipelineVersion(page);
    await page.selectOption('#ssa', 'alloca');
    await waitCompiled(page, v);
    await page.click('#tabs button[data-tab="stepper"]');
    await page.selectOption('#algorithm', 'mem2reg');
    await page.waitForSelector('#events[data-loaded^="mem2reg "] li');
    expect(await page.textContent('#step-text')).toMatch(/^mem2reg on @main/);
    await page.waitForFunction(() => document.getElementById('graph-step')!.textContent === 'before the pipeline');
    const n = await page.locator('#events li').count();
    expect(n).toBeGreaterThan(2);
    expect(await page.textContent('#events')).toMatch(/phi/);
    await page.click('#step-last');
    expect(await page.textContent('#step-pos')).toBe(`step ${n} of ${n}`);
    await page.screenshot({ path: `${SHOTS}/04c-mem2reg.png` });
    // the IDF trace of the same allocas
    await page.selectOption('#algorithm', 'idf');
    await page.waitForSelector('#events[data-loaded^="idf "] li');
    expect(await page.textContent('#step-text')).toMatch(/^IDF of stores to %x in @main/);
    expect(await page.textContent('#events')).toContain('IDF = {while.cond}');
    // the library's structured traces are in the menu too: Braun's construction on the same allocas
    expect(await page.locator('#algorithm option[value^="trace:"]').count()).toBeGreaterThanOrEqual(10);
    await page.selectOption('#algorithm', 'trace:braun');
    await page.waitForSelector('#events[data-loaded^="trace:braun "] li');
    expect(await page.textContent('#events')).toMatch(/seal/i);
    // a step that names blocks lights them in the graph
    const named = await page.$$eval('#events li', (ls) => ls.map((l) => l.textContent ?? ''));
    const k = named.findIndex((t) => /\bwhile\.cond\b/.test(t));
    expect(k).toBeGreaterThanOrEqual(0);
    await page.click(`#events li:nth-child(${k + 1})`);
    await expect.poll(() => page.$$eval('#graph g.node.hl', (ns) => ns.map((x) => (x as SVGElement).dataset.block)), { timeout: 15_000 }).toContain('while.cond');
  });

  it('run: stdout, exit code and instruction counts before and after -O2', async () => {
    await openFresh();
    await page.click('#tabs button[data-tab="run"]');
    await page.click('#run');
    await page.waitForSelector('#opcodes');
    const src = readFileSync('examples/sort.sy', 'utf8');
    const stdin = readFileSync('examples/sort.in', 'utf8');
    const want = runModule(compileSysY(src, 'sort.sy', { optLevel: 2 }).module!, { stdin, stdout: 'collect', stderr: 'collect' });
    const outs = await page.$$eval('#run-out pre.stdout', (ps) => ps.map((p) => p.textContent));
    expect(outs).toEqual([want.stdout, want.stdout]);
    const exits = await page.$$eval('#run-out b.exit', (bs) => bs.map((b) => Number(b.textContent)));
    expect(exits).toEqual([want.exitCode, want.exitCode]);
    const steps = await page.$$eval('#run-out b.steps', (bs) => bs.map((b) => Number(b.textContent)));
    expect(steps[1]).toBeLessThan(steps[0]); // -O2 executes fewer instructions
    expect(await page.locator('#opcodes tr').count()).toBeGreaterThan(5);
    await page.screenshot({ path: `${SHOTS}/05-run.png` });
  });

  it('share: the URL restores source, pipeline, stdin and tab', async () => {
    await openFresh();
    let v = await pipelineVersion(page);
    await page.selectOption('#example', 'sccp');
    await waitCompiled(page, v);
    v = await pipelineVersion(page);
    await page.fill('#pipeline', 'mem2reg,sccp');
    await waitCompiled(page, v);
    v = await pipelineVersion(page);
    await setEditorText(page, 'int main() {\n  int a = 6;\n  putint(a * 7);\n  return 0;\n}\n');
    await waitCompiled(page, v);
    await page.click('#tabs button[data-tab="run"]');
    await page.fill('#stdin', 'shared input');
    await page.click('#tabs button[data-tab="ir"]');
    await page.click('#share');
    await page.waitForFunction(() => location.hash.startsWith('#s='));
    const url = page.url();
    const other = await site.browser.newPage({ viewport: { width: 1600, height: 900 } });
    await other.goto(url);
    await waitCompiled(other, 0, 60_000);
    expect(await other.textContent('#editor .cm-content')).toContain('putint(a * 7);');
    expect(await other.inputValue('#level')).toBe('custom');
    expect(await other.inputValue('#pipeline')).toBe('mem2reg,sccp');
    expect(await other.inputValue('#stdin')).toBe('shared input');
    expect(await other.isVisible('#tab-ir')).toBe(true);
    expect(await other.textContent('#final-ir')).toContain('call void @putint(i32 42)');
    await waitGraph(other);
    await other.screenshot({ path: `${SHOTS}/06-shared.png` });
    await other.close();
  });

  it('SSA construction and a custom pipeline: allocas at -O0, validation, the pass picker', async () => {
    await openFresh();
    let v = await pipelineVersion(page);
    await page.selectOption('#ssa', 'alloca');
    await page.selectOption('#level', 'default<O0>');
    await waitCompiled(page, v);
    expect(await page.textContent('#final-ir')).toMatch(/= alloca i32/);
    v = await pipelineVersion(page);
    await page.selectOption('#pass-picker', 'mem2reg');
    await waitCompiled(page, v);
    expect(await page.inputValue('#level')).toBe('custom');
    expect(await page.inputValue('#pipeline')).toBe('mem2reg');
    expect(await page.textContent('#final-ir')).not.toMatch(/= alloca i32 *(,|$)/m);
    expect(await page.locator('#steps li').count()).toBeGreaterThan(0);
    await page.fill('#pipeline', 'mem2reg,no-such-pass');
    await page.waitForSelector('#pipeline.invalid');
    await expect.poll(() => page.textContent('#status'), { timeout: 30_000 }).toMatch(/no-such-pass/);
    v = await pipelineVersion(page);
    await page.fill('#pipeline', 'mem2reg');
    await waitCompiled(page, v);
    expect(await page.locator('#pipeline.invalid').count()).toBe(0);
    v = await pipelineVersion(page);
    await page.selectOption('#pass-picker', 'gvn');
    await waitCompiled(page, v);
    expect(await page.inputValue('#pipeline')).toBe('mem2reg,gvn');
    await page.uncheck('#only-changed');
    expect(await page.locator('#steps li', { hasText: 'gvn on @' }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: `${SHOTS}/07a-custom-pipeline.png` });
  });

  it('an error is underlined at its line:col', async () => {
    await openFresh();
    await setEditorText(page, 'int main() {\n  int x = 1;\n  return y + x;\n}\n');
    await page.waitForSelector('#editor .cm-lintRange-error');
    expect(await page.textContent('#errors')).toMatch(/^input:3:10: error: .*y/);
    // the underline covers `y` on line 3
    const underlined = await page.$eval('#editor .cm-lintRange-error', (e) => e.textContent);
    expect(underlined).toBe('y');
    await page.screenshot({ path: `${SHOTS}/07-error.png` });
    // LLVM IR errors too
    await page.selectOption('#lang', 'llvm');
    await setEditorText(page, 'define i32 @f() {\nentry:\n  ret i32 %nope\n}\n');
    await page.waitForFunction(() => document.getElementById('errors')!.textContent!.startsWith('input:3:'));
    expect(await page.locator('#editor .cm-lintRange-error').count()).toBe(1);
  });

  it('a long job is cancelled and the page keeps working', async () => {
    await openFresh();
    const v = await pipelineVersion(page);
    await setEditorText(page, 'int main() {\n  int i = 0;\n  while (1) { i = i + 1; }\n  return i;\n}\n');
    await waitCompiled(page, v);
    await page.click('#tabs button[data-tab="run"]');
    await page.click('#run');
    await page.waitForSelector('#cancel:not([disabled])', { timeout: 10_000 });
    await page.click('#cancel');
    await page.waitForFunction(() => document.getElementById('run-out')!.textContent === 'cancelled');
    // the fresh worker compiles the program again by itself, and Cancel goes grey
    await page.waitForFunction(() => /^compiled/.test(document.getElementById('status')!.textContent ?? ''));
    await page.waitForSelector('#cancel[disabled]');
    // the fresh worker compiles and runs again
    const v2 = await pipelineVersion(page);
    await setEditorText(page, 'int main() {\n  putint(7);\n  return 3;\n}\n');
    await waitCompiled(page, v2);
    await page.click('#run');
    await page.waitForSelector('#opcodes');
    expect(await page.$$eval('#run-out pre.stdout', (ps) => ps.map((p) => p.textContent))).toEqual(['7', '7']);
    await page.screenshot({ path: `${SHOTS}/08-after-cancel.png` });
  });
});
