/**
 * The architecture holds: no file of src/ imports a layer above its own or a peer layer
 * (test/architecture/layers.ts declares the order), and the runtime imports have no cycle.
 * A failure names the file, the line and the layers involved.
 */
import { describe, expect, it } from 'vitest';
import { readImportGraph, runtimeCycles, type ImportGraph } from './import-graph.js';
import { LAYERS } from './layers.js';

/** Rank of each folder (peers share a rank) and the group each belongs to. */
const rank = new Map<string, number>();
LAYERS.forEach((entry, k) => {
  for (const folder of typeof entry === 'string' ? [entry] : entry) {
    if (rank.has(folder)) throw new Error(`layers.ts lists '${folder}' twice`);
    rank.set(folder, k);
  }
});

/** The layer of a file: the longest listed folder containing it. */
export function layerOf(file: string): string | null {
  let best: string | null = null;
  for (const folder of rank.keys()) {
    const inside = folder === '.' ? !file.includes('/') : file.startsWith(folder + '/');
    if (inside && (best === null || folder.length > best.length)) best = folder;
  }
  return best;
}

/** The violations of the layer order in `g`, as readable lines. */
export function layerViolations(g: ImportGraph): string[] {
  const out: string[] = [];
  for (const f of g.files) if (layerOf(f) === null) out.push(`${f}: in no layer of test/architecture/layers.ts`);
  for (const e of g.edges) {
    const a = layerOf(e.from);
    const b = layerOf(e.to);
    if (a === null || b === null || a === b) continue;
    const ra = rank.get(a)!;
    const rb = rank.get(b)!;
    if (rb > ra) out.push(`${e.from}:${e.line} imports ${e.to}: '${a}' must not import '${b}', a layer above it`);
    else if (rb === ra) out.push(`${e.from}:${e.line} imports ${e.to}: '${a}' and '${b}' are peers and must not import each other`);
  }
  return out;
}

const graph = readImportGraph('src');

describe('the layers of src/', () => {
  it('no file imports a layer above its own, or a peer layer', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('the runtime imports have no cycle', () => {
    expect(runtimeCycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('the checks catch an upward import, a peer import and a cycle', () => {
    const g: ImportGraph = {
      files: ['ir/a.ts', 'ir/b.ts', 'analysis/c.ts', 'transforms/scalar/d.ts', 'transforms/loop/e.ts'],
      edges: [
        { from: 'ir/a.ts', to: 'analysis/c.ts', typeOnly: true, line: 3 },
        { from: 'transforms/loop/e.ts', to: 'transforms/scalar/d.ts', typeOnly: false, line: 4 },
        { from: 'ir/a.ts', to: 'ir/b.ts', typeOnly: false, line: 5 },
        { from: 'ir/b.ts', to: 'ir/a.ts', typeOnly: false, line: 6 },
        { from: 'analysis/c.ts', to: 'ir/a.ts', typeOnly: false, line: 7 },
      ],
    };
    expect(layerViolations(g)).toEqual([
      "ir/a.ts:3 imports analysis/c.ts: 'ir' must not import 'analysis', a layer above it",
      "transforms/loop/e.ts:4 imports transforms/scalar/d.ts: 'transforms/loop' and 'transforms/scalar' are peers and must not import each other",
    ]);
    expect(runtimeCycles(g)).toEqual([['ir/a.ts', 'ir/b.ts', 'ir/a.ts']]);
    // a type-only import closes no runtime cycle
    g.edges[3].typeOnly = true;
    expect(runtimeCycles(g)).toEqual([]);
  });
});
