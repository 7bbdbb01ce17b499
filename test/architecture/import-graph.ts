/**
 * The import graph of src/, read with the TypeScript parser (no bundler, no npm package):
 * for each file, the files it imports and whether each import can matter at run time.
 *
 * An import is type-only when TypeScript erases it whatever the compiler options:
 * `import type …`, `export type … from`, an import whose every name is marked `type`, or
 * an `import('…').T` in a type position. Everything else counts as a runtime import,
 * including a plain import that only happens to be used as a type (esbuild drops those,
 * but nothing stops the next edit from using it as a value), `export * from` and a
 * dynamic `import('…')` call.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** The importing file, relative to the root given to readImportGraph (e.g. 'passes/index.ts'). */
  from: string;
  /** The imported file, relative to the same root. */
  to: string;
  /** Erased by TypeScript: cannot create a runtime dependency. */
  typeOnly: boolean;
  /** 1-based line of the import, for messages. */
  line: number;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
}

function listTs(dir: string, out: string[] = []): string[] {
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) listTs(p, out);
    else if (f.endsWith('.ts') && !f.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Reads every .ts file under `root` and the relative imports between them. */
export function readImportGraph(root: string): ImportGraph {
  const paths = listTs(root);
  const files = paths.map((p) => relative(root, p));
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const p of paths) {
    const from = relative(root, p);
    const text = readFileSync(p, 'utf8');
    const sf = ts.createSourceFile(p, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const add = (spec: string, typeOnly: boolean, node: ts.Node): void => {
      if (!spec.startsWith('.')) return; // a package or node: module
      const to = normalize(join(dirname(from), spec.replace(/\.js$/, '.ts')));
      if (!known.has(to)) throw new Error(`${from}: import of '${spec}', which is not a file under ${root}`);
      edges.push({ from, to, typeOnly, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const c = node.importClause;
        let typeOnly = false;
        if (c !== undefined) {
          if (c.isTypeOnly) typeOnly = true;
          else if (c.name === undefined && c.namedBindings !== undefined && ts.isNamedImports(c.namedBindings)) {
            const els = c.namedBindings.elements;
            typeOnly = els.length > 0 && els.every((e) => e.isTypeOnly);
          }
        }
        add(node.moduleSpecifier.text, typeOnly, node);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
        let typeOnly = node.isTypeOnly;
        const ec = node.exportClause;
        if (!typeOnly && ec !== undefined && ts.isNamedExports(ec)) typeOnly = ec.elements.length > 0 && ec.elements.every((e) => e.isTypeOnly);
        add(node.moduleSpecifier.text, typeOnly, node);
      } else if (ts.isImportTypeNode(node)) {
        const a = node.argument;
        if (ts.isLiteralTypeNode(a) && ts.isStringLiteral(a.literal)) add(a.literal.text, true, node);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const a = node.arguments[0];
        if (a !== undefined && ts.isStringLiteral(a)) add(a.text, false, node);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return { files, edges };
}

/**
 * The cycles of the runtime import graph: each strongly connected component of more than
 * one file (or a file importing itself), as a list of files, with one cycle through it as
 * a readable path.
 */
export function runtimeCycles(g: ImportGraph): string[][] {
  const idx = new Map(g.files.map((f, i) => [f, i]));
  const adj: number[][] = g.files.map(() => []);
  for (const e of g.edges) if (!e.typeOnly) adj[idx.get(e.from)!].push(idx.get(e.to)!);
  // Tarjan's algorithm, recursive: the graph is a few hundred files.
  const n = g.files.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const out: string[][] = [];
  let counter = 0;
  const strong = (v: number): void => {
    index[v] = low[v] = counter++;
    stack.push(v);
    onStack[v] = 1;
    for (const w of adj[v]) {
      if (index[w] < 0) {
        strong(w);
        low[v] = Math.min(low[v], low[w]);
      } else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
    }
    if (low[v] !== index[v]) return;
    const comp: number[] = [];
    let w: number;
    do {
      w = stack.pop()!;
      onStack[w] = 0;
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1 || adj[v].includes(v)) out.push(cyclePath(comp, adj).map((i) => g.files[i]));
  };
  for (let v = 0; v < n; v++) if (index[v] < 0) strong(v);
  return out;
}

/** One cycle inside a strongly connected component, as a path ending where it starts. */
function cyclePath(comp: number[], adj: number[][]): number[] {
  const inComp = new Set(comp);
  const start = Math.min(...comp);
  // breadth-first from start's successors back to start
  const prev = new Map<number, number>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of adj[v]) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let x = v; x !== start; x = prev.get(x)!) path.push(x);
        path.push(start);
        return path.reverse();
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return comp;
}
