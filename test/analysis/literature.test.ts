/**
 * The worked examples of the literature, as exact expected values, through the API (both
 * dominator and both frontier algorithms) and through `ssakit analyze --json` (in-process
 * and the built CLI).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { CFG, computeDominators, controlDependence, findLoops, frontierOfTree, iteratedDominanceFrontier, postDominators } from '../../src/analysis/index.js';
import { blockNames } from '../../src/analysis/report.js';
import { registerAll } from '../../src/cli/commands/index.js';
import { parseModule } from '../../src/text/index.js';

const ROOT = join(__dirname, '../..');
const FIX = join(__dirname, 'fixtures');

function load(file: string) {
  const path = join(FIX, file);
  const m = parseModule(readFileSync(path, 'utf8'), path);
  const fn = m.definedFunctions()[0];
  const cfg = new CFG(fn);
  const names = blockNames(fn);
  const id = new Map(names.map((n, i) => [n, i]));
  const set = (ids: ArrayLike<number>): string[] => Array.from(ids, (i) => names[i]).sort();
  return { path, fn, cfg, names, id, set };
}

/** Runs `ssakit analyze ARGS -o tmp` in-process and returns the output text. */
async function analyzeInProcess(args: string[]): Promise<string> {
  const program = new Command();
  program.exitOverride();
  registerAll(program);
  const out = join(mkdtempSync(join(tmpdir(), 'ssakit-analyze-')), 'out.txt');
  await program.parseAsync(['node', 'ssakit', 'analyze', ...args, '-o', out]);
  return readFileSync(out, 'utf8');
}

const CYTRON_DF: Record<string, string[]> = {
  Entry: [],
  N1: ['Exit'],
  N2: ['Exit', 'N2'],
  N3: ['N8'],
  N4: ['N6'],
  N5: ['N6'],
  N6: ['N8'],
  N7: ['N8'],
  N8: ['Exit', 'N2'],
  N9: ['Exit', 'N2', 'N9'],
  N10: ['N11'],
  N11: ['Exit', 'N2', 'N9'],
  N12: ['Exit', 'N2'],
  Exit: [],
};
const CYTRON_IDOM: Record<string, string | null> = {
  Entry: null, N1: 'Entry', N2: 'N1', N3: 'N2', N4: 'N3', N5: 'N3', N6: 'N3', N7: 'N2', N8: 'N2',
  N9: 'N8', N10: 'N9', N11: 'N9', N12: 'N11', Exit: 'Entry',
};
// Control dependences (Cytron et al., §6: X such that Y ∈ ... RDF): with the real Entry -> Exit
// edge of the fixture this is the paper's augmented graph.
const CYTRON_CDEPS: Record<string, string[]> = {
  Entry: [], N1: ['Entry'], N2: ['Entry', 'N12'], N3: ['N2'], N4: ['N3'], N5: ['N3'], N6: ['N2'], N7: ['N2'],
  N8: ['Entry', 'N12'], N9: ['Entry', 'N11', 'N12'], N10: ['N9'], N11: ['Entry', 'N11', 'N12'], N12: ['Entry', 'N12'], Exit: [],
};

const TEXTBOOK_IDOM: Record<string, string | null> = {
  B0: null, B1: 'B0', B2: 'B1', B3: 'B1', B4: 'B3', B5: 'B1', B6: 'B5', B7: 'B5', B8: 'B5',
};
const TEXTBOOK_DF: Record<string, string[]> = {
  B0: [], B1: ['B1'], B2: ['B3'], B3: ['B1'], B4: [], B5: ['B3'], B6: ['B7'], B7: ['B3'], B8: ['B7'],
};

describe("Cytron et al.'s 12-node example", () => {
  const { fn, cfg, names, id, set } = load('cytron.ll');

  for (const algorithm of ['chk', 'seminca'] as const) {
    it(`idoms by ${algorithm}`, () => {
      const dt = computeDominators(cfg, { algorithm });
      for (const [b, d] of Object.entries(CYTRON_IDOM)) expect(dt.idom[id.get(b)!] < 0 ? null : names[dt.idom[id.get(b)!]]).toBe(d);
    });
    for (const df of ['runner', 'cytron'] as const) {
      it(`DF table of Figure 9 (${algorithm} + ${df})`, () => {
        const front = frontierOfTree(computeDominators(cfg, { algorithm }), { algorithm: df });
        for (const [b, want] of Object.entries(CYTRON_DF)) expect(set(front.get(id.get(b)!))).toEqual([...want].sort());
      });
    }
  }

  it('control dependences, loops and post-dominators', () => {
    const cd = controlDependence(cfg);
    for (const [b, want] of Object.entries(CYTRON_CDEPS)) expect(set(cd.dependsOn(id.get(b)!))).toEqual([...want].sort());
    const li = findLoops(cfg);
    expect(li.loops.map((l) => [names[l.header], l.depth, set(l.blocks()), set(l.latches())])).toEqual([
      ['N2', 1, ['N10', 'N11', 'N12', 'N2', 'N3', 'N4', 'N5', 'N6', 'N7', 'N8', 'N9'], ['N12']],
      ['N9', 2, ['N10', 'N11', 'N9'], ['N11']],
    ]);
    expect(li.irreducible).toBe(false);
    const pdt = postDominators(cfg);
    expect(Array.from(pdt.roots, (r) => names[r])).toEqual(['Exit']);
    expect(names[pdt.ipdom(id.get('N2')!)]).toBe('N8');
    expect(pdt.ipdom(id.get('Exit')!)).toBe(-1);
  });

  it('iterated frontiers (phi placement for a variable assigned in Entry, N1, N3 and N7)', () => {
    const dt = computeDominators(cfg);
    const defs = ['Entry', 'N1', 'N3', 'N7'].map((b) => id.get(b)!);
    expect(set(iteratedDominanceFrontier(dt, defs))).toEqual(['Exit', 'N2', 'N8']);
    expect(set(iteratedDominanceFrontier(dt, [id.get('N10')!]))).toEqual(['Exit', 'N11', 'N2', 'N9']);
  });

  it('through `ssakit analyze --json` (in-process), for every algorithm choice', async () => {
    for (const dom of ['chk', 'seminca']) {
      for (const df of ['runner', 'cytron']) {
        const j = JSON.parse(await analyzeInProcess([join(FIX, 'cytron.ll'), '--json', `--dom=${dom}`, `--df=${df}`]));
        const f = j.functions[0];
        expect(f.name).toBe(fn.name);
        expect(f.blocks).toEqual(['Entry', 'N1', 'N2', 'N3', 'N4', 'N5', 'N6', 'N7', 'N8', 'N9', 'N10', 'N11', 'N12', 'Exit']);
        expect(f.idom).toEqual(CYTRON_IDOM);
        const order = (a: string[]): string[] => [...a].sort((x, y) => f.blocks.indexOf(x) - f.blocks.indexOf(y));
        for (const [b, want] of Object.entries(CYTRON_DF)) expect(f.df[b]).toEqual(order(want));
        for (const [b, want] of Object.entries(CYTRON_CDEPS)) expect(f.cdeps[b]).toEqual(order(want));
        expect(f.ipdom.Exit).toBeNull();
        expect(f.ipdom.Entry).toBe('Exit');
        expect(f.loops).toEqual([
          { header: 'N2', blocks: ['N2', 'N3', 'N4', 'N5', 'N6', 'N7', 'N8', 'N9', 'N10', 'N11', 'N12'], latches: ['N12'], depth: 1, parent: null },
          { header: 'N9', blocks: ['N9', 'N10', 'N11'], latches: ['N11'], depth: 2, parent: 'N2' },
        ]);
        expect(f.irreducible).toBe(false);
        expect(f.preds.N2).toEqual(['N1', 'N12']);
        expect(f.succs.Entry).toEqual(['N1', 'Exit']);
        expect(f.liveIn.N5).toEqual(['%c']);
        expect(f.liveOut.Exit).toEqual([]);
      }
    }
  });
});

describe('the B0-B8 example of Engineering a Compiler', () => {
  const { cfg, names, id, set } = load('textbook.ll');

  for (const algorithm of ['chk', 'seminca'] as const) {
    for (const df of ['runner', 'cytron'] as const) {
      it(`idoms and DF (${algorithm} + ${df})`, () => {
        const dt = computeDominators(cfg, { algorithm });
        for (const [b, d] of Object.entries(TEXTBOOK_IDOM)) expect(dt.idom[id.get(b)!] < 0 ? null : names[dt.idom[id.get(b)!]]).toBe(d);
        const front = frontierOfTree(dt, { algorithm: df });
        for (const [b, want] of Object.entries(TEXTBOOK_DF)) expect(set(front.get(id.get(b)!))).toEqual(want);
      });
    }
  }

  it('through `ssakit analyze --json` (in-process)', async () => {
    const j = JSON.parse(await analyzeInProcess([join(FIX, 'textbook.ll'), '--json']));
    const f = j.functions[0];
    expect(f.idom).toEqual(TEXTBOOK_IDOM);
    expect(f.df).toEqual(TEXTBOOK_DF);
    expect(f.loops).toEqual([{ header: 'B1', blocks: ['B1', 'B2', 'B3', 'B5', 'B6', 'B7', 'B8'], latches: ['B3'], depth: 1, parent: null }]);
  });

  it('the dominator tree queries', () => {
    const dt = computeDominators(cfg);
    const b = (s: string): number => id.get(s)!;
    expect(dt.dominates(b('B1'), b('B7'))).toBe(true);
    expect(dt.dominates(b('B5'), b('B3'))).toBe(false);
    expect(dt.strictlyDominates(b('B3'), b('B3'))).toBe(false);
    expect(names[dt.nearestCommonDominator(b('B6'), b('B8'))]).toBe('B5');
    expect(names[dt.nearestCommonDominator(b('B4'), b('B7'))]).toBe('B1');
    expect(set(dt.children(b('B5')))).toEqual(['B6', 'B7', 'B8']);
    expect(dt.depth[b('B6')]).toBe(3);
  });
});

describe('the built CLI', () => {
  const cli = join(ROOT, 'dist/ssakit.js');
  beforeAll(() => {
    const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`build failed: ${r.stderr}`);
  });

  it('node dist/ssakit.js analyze --json prints the frontier tables', () => {
    expect(existsSync(cli)).toBe(true);
    for (const [file, table] of [['cytron.ll', CYTRON_DF], ['textbook.ll', TEXTBOOK_DF]] as const) {
      const r = spawnSync(process.execPath, [cli, 'analyze', join(FIX, file), '--json'], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const f = JSON.parse(r.stdout).functions[0];
      for (const [b, want] of Object.entries(table)) expect([...f.df[b]].sort()).toEqual([...want].sort());
    }
  });

  it('prints the runner walks and the IDF worklist with --trace', () => {
    let r = spawnSync(process.execPath, [cli, 'analyze', join(FIX, 'textbook.ll'), '--trace=df'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('join B3: preds {B2, B7}, idom B1');
    expect(r.stdout).toContain('DF(B7) = {B3}');
    r = spawnSync(process.execPath, [cli, 'analyze', join(FIX, 'textbook.ll'), '--trace=df', '--df=cytron'], { encoding: 'utf8' });
    expect(r.stdout).toContain('DF(B5): local {} up {B3 (from B7)} => {B3}');
    r = spawnSync(process.execPath, [cli, 'analyze', join(FIX, 'cytron.ll'), '--trace=idf-sg', '--defs=N3,N7'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('pop N3');
    expect(r.stdout).toMatch(/IDF = \{N2, N8, Exit\}|IDF = \{N8, N2, Exit\}/);
    // --trace=idf is Cytron et al.'s worklist over frontiers (Figure 11)
    r = spawnSync(process.execPath, [cli, 'analyze', join(FIX, 'cytron.ll'), '--trace=idf', '--defs=N3,N7'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('take N3 from W');
    expect(r.stdout).toMatch(/φ-nodes placed in \{(N2|N8|Exit), (N2|N8|Exit), (N2|N8|Exit)\}/);
    r = spawnSync(process.execPath, [cli, 'analyze', join(FIX, 'cytron.ll'), '--trace=idf', '--defs=N3,N7', '--trace-json'], { encoding: 'utf8' });
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(events.every((e) => e.algorithm === 'idf' && typeof e.text === 'string' && Array.isArray(e.blocks))).toBe(true);
    r = spawnSync(process.execPath, [cli, 'analyze', join(FIX, 'cytron.ll'), '--trace=idf', '--defs=Nope'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("no block named 'Nope'");
  });

  it('reports a missing function and declarations cleanly', () => {
    const r = spawnSync(process.execPath, [cli, 'analyze', join(FIX, 'cytron.ll'), '--function', 'nope'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("no function named '@nope'");
    expect(r.stderr).not.toContain('    at ');
  });
});
