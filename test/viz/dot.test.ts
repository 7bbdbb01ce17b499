/**
 * DOT writers and the `ssakit dot` command: graph structure, escaping, and SVG rendering
 * through @viz-js/viz (WASM Graphviz, no system install).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerAll } from '../../src/cli/commands/index.js';
import { parseModule } from '../../src/text/index.js';
import { cfgToDot, domTreeToDot, frontierToDot, functionToDot, loopsToDot, postDomTreeToDot } from '../../src/viz/dot.js';
import { renderSvg } from '../../src/viz/svg.js';

const FIX = join(__dirname, '../analysis/fixtures');
const load = (f: string) => parseModule(readFileSync(join(FIX, f), 'utf8'), f).definedFunctions()[0];

const SRC = `
define i32 @sw(i32 %x) {
entry:
  %s = call i32 (ptr, ...) @printf(ptr @fmt, i32 %x)
  %"q{|}" = add i32 %x, 1
  switch i32 %x, label %d [ i32 1, label %a
                            i32 -2, label %b ]
a:
  br label %d
b:
  br label %d
d:
  %p = phi i32 [ 0, %entry ], [ 1, %a ], [ 2, %b ]
  ret i32 %p
}
@fmt = constant [4 x i8] c"{|}\\00"
declare i32 @printf(ptr, ...)
`;

function edges(dot: string): string[] {
  return [...dot.matchAll(/^\s*(b\d+)(?::s\d+)? -> (b\d+)( \[[^\]]*\])?;$/gm)].map((m) => `${m[1]}->${m[2]}${m[3] ? ' ' + (m[3].includes('dashed') ? 'dashed' : 'bold') : ''}`);
}

describe('DOT writers', () => {
  it('cfg: record nodes with instructions and T/F / switch ports, like opt -passes=dot-cfg', () => {
    const fn = parseModule(SRC, 'sw.ll').getFunction('sw')!;
    const dot = cfgToDot(fn);
    expect(dot).toMatch(/^digraph "CFG for 'sw' function" \{/);
    expect(dot).toContain('<s0>def|<s1>1|<s2>-2');
    expect(dot).toContain('%p\\ =\\ phi\\ i32\\ [\\ 0,\\ %entry\\ ]');
    expect(dot).toContain('\\ \\ %\\"q\\{\\|\\}\\"\\ =\\ add'); // record metacharacters in names are escaped
    expect(edges(dot)).toEqual(['b0->b3', 'b0->b1', 'b0->b2', 'b1->b3', 'b2->b3']);
    const tb = cfgToDot(load('textbook.ll'));
    expect(tb).toContain('{<s0>T|<s1>F}');
  });

  it('domtree and postdomtree', () => {
    const fn = load('textbook.ll');
    expect(edges(domTreeToDot(fn)).sort()).toEqual(['b0->b1', 'b1->b2', 'b1->b3', 'b1->b5', 'b3->b4', 'b5->b6', 'b5->b7', 'b5->b8'].sort());
    const pd = postDomTreeToDot(fn);
    expect(pd).toContain('b9 [label="<<exit>>", style=dashed];');
    expect(edges(pd)).toContain('b9->b4');
  });

  it('df: the CFG plus dashed frontier edges', () => {
    const e = edges(frontierToDot(load('textbook.ll')));
    expect(e.filter((x) => x.endsWith('dashed')).sort()).toEqual(
      ['b1->b1', 'b2->b3', 'b3->b1', 'b5->b3', 'b6->b7', 'b7->b3', 'b8->b7'].map((x) => x + ' dashed').sort(),
    );
  });

  it('loops: nested clusters, back edges bold', () => {
    const dot = loopsToDot(load('cytron.ll'));
    const outer = dot.indexOf('subgraph cluster_loop0');
    const inner = dot.indexOf('subgraph cluster_loop1');
    expect(outer).toBeGreaterThan(0);
    expect(inner).toBeGreaterThan(outer);
    expect(dot).toContain('label="loop N9 (depth 2)"');
    expect(edges(dot).filter((x) => x.endsWith('bold')).sort()).toEqual(['b11->b9 bold', 'b12->b2 bold']);
  });

  it('every graph kind renders to SVG with the WASM Graphviz', async () => {
    const fn = load('cytron.ll');
    for (const kind of ['cfg', 'domtree', 'postdomtree', 'df', 'loops'] as const) {
      const svg = await renderSvg(functionToDot(fn, kind));
      expect(svg).toContain('<svg');
      expect(svg).toContain('N12');
    }
    const sw = parseModule(SRC, 'sw.ll').getFunction('sw')!;
    expect(await renderSvg(cfgToDot(sw))).toContain('<svg');
  });
});

describe('ssakit dot', () => {
  async function run(args: string[]): Promise<string> {
    const program = new Command();
    program.exitOverride();
    registerAll(program);
    const out = join(mkdtempSync(join(tmpdir(), 'ssakit-dot-')), 'out');
    await program.parseAsync(['node', 'ssakit', 'dot', ...args, '-o', out]);
    return readFileSync(out, 'utf8');
  }

  it('writes DOT and SVG (in-process)', async () => {
    const dot = await run([join(FIX, 'textbook.ll'), '--graph=domtree']);
    expect(dot).toMatch(/^digraph "Dominator tree for 'textbook' function"/);
    const svg = await run([join(FIX, 'textbook.ll'), '--function', 'textbook', '--graph=df', '--svg']);
    expect(svg).toMatch(/^<\?xml/);
    expect(svg).toContain('</svg>');
  });

  it('the built CLI renders SVG and reports a bad function name', () => {
    const root = join(__dirname, '../..');
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
    expect(b.status, b.stderr).toBe(0);
    const cli = join(root, 'dist/ssakit.js');
    let r = spawnSync(process.execPath, [cli, 'dot', join(FIX, 'cytron.ll'), '--function', 'cytron', '--graph=loops', '--svg'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('<svg');
    r = spawnSync(process.execPath, [cli, 'dot', join(FIX, 'cytron.ll'), '--function', 'zzz'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("no function named '@zzz'");
    r = spawnSync(process.execPath, [cli, 'dot', join(FIX, 'cytron.ll'), '--graph=nope'], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
  });
});
