/**
 * The examples menu: the literature's worked examples (web/examples/, and the analysis
 * fixtures the tests check against the papers' tables), plus the project's examples/.
 * Each may suggest the pipeline that shows what it is about.
 */
const files = import.meta.glob(['../examples/*.{sy,ll}', '../../examples/*.{sy,ll,in}', '../../test/analysis/fixtures/{textbook,cytron}.ll'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

export interface Example {
  id: string;
  title: string;
  lang: 'sysy' | 'llvm';
  source: string;
  pipeline: string;
  ssa?: 'braun' | 'alloca';
  stdin?: string;
}

const META: [id: string, path: string, title: string, pipeline: string, stdin?: string, ssa?: 'braun' | 'alloca'][] = [
  ['sort', '../../examples/sort.sy', 'examples/sort.sy: quicksort with I/O', 'default<O2>', undefined],
  ['hello', '../../examples/hello.ll', 'examples/hello.ll: clang -O0 output', 'default<O2>', ''],
  ['chk', '../../test/analysis/fixtures/textbook.ll', 'Cooper–Torczon B0–B8: dominators and frontiers', 'default<O0>'],
  ['cytron', '../../test/analysis/fixtures/cytron.ll', "Cytron et al.'s 12-node CFG (Figure 5)", 'default<O0>'],
  ['braun-while', '../examples/braun-while.sy', 'Braun et al.: the while loop (unsealed header)', 'default<O1>', '5\n', 'braun'],
  ['braun-redundant', '../examples/braun-redundant.sy', 'Braun et al.: an SCC of redundant phis', 'mem2reg-braun<no-scc>,redundant-phis', '3\n', 'alloca'],
  ['braun-copies', '../examples/braun-copies.sy', 'Braun et al.: phis of copies only', 'mem2reg-braun<no-scc>,redundant-phis', '7\n', 'alloca'],
  ['lost-copy', '../examples/lost-copy.ll', 'Briggs et al.: the lost-copy problem', 'out-of-ssa'],
  ['swap', '../examples/swap.ll', 'Briggs et al.: the swap problem', 'out-of-ssa'],
  ['sccp', '../examples/sccp.sy', 'SCCP: the classic example (Wegman–Zadeck, Hack)', 'mem2reg,sccp,simplifycfg', ''],
  ['simplify', '../examples/simplify.sy', 'test(int x): algebraic simplification', 'mem2reg,instcombine,dce', '6\n'],
  ['licm', '../examples/licm.sy', 'LICM: an invariant in a loop', 'mem2reg,loop-simplify,loop-rotate,licm', '3 4 10\n'],
  ['pre', '../examples/pre.sy', 'PRE: a partially redundant a + b', 'mem2reg,pre', '2 3 1\n'],
];

const SORT_IN = files['../../examples/sort.in'];

export const EXAMPLES: Example[] = META.filter(([, path]) => files[path] !== undefined).map(([id, path, title, pipeline, stdin, ssa]) => ({
  id,
  title,
  lang: path.endsWith('.ll') ? 'llvm' : 'sysy',
  source: files[path],
  pipeline,
  ...(ssa !== undefined ? { ssa } : {}),
  stdin: stdin ?? (id === 'sort' ? SORT_IN : ''),
}));

// every other program of examples/ too
for (const path of Object.keys(files).sort()) {
  if (!path.startsWith('../../examples/') || path.endsWith('.in') || META.some(([, p]) => p === path)) continue;
  const name = path.slice('../../'.length);
  EXAMPLES.push({ id: name, title: name, lang: path.endsWith('.ll') ? 'llvm' : 'sysy', source: files[path], pipeline: 'default<O2>', stdin: files[path.replace(/\.(sy|ll)$/, '.in')] ?? '' });
}

export const DEFAULT_EXAMPLE = EXAMPLES[0];
