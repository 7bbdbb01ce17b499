/**
 * Parses what `opt-19 -passes='print<domtree>,print<postdomtree>,print<loops>' -disable-output`
 * writes (to stderr): per function, the dominator and post-dominator trees as parent maps
 * (block name with `%` → parent name, null for the root; the post-dominator tree's virtual
 * root is '<<exit>>'), and the loops.
 */
export interface OptLoop {
  header: string;
  blocks: string[];
  latches: string[];
  depth: number;
  parent: string | null;
}

export interface OptFunctionInfo {
  dom?: Map<string, string | null>;
  postdom?: Map<string, string | null>;
  loops?: OptLoop[];
}

export function parseOptAnalyses(text: string): Map<string, OptFunctionInfo> {
  const out = new Map<string, OptFunctionInfo>();
  const get = (f: string): OptFunctionInfo => {
    let e = out.get(f);
    if (e === undefined) out.set(f, (e = {}));
    return e;
  };
  const lines = text.split('\n');
  let tree: Map<string, string | null> | null = null;
  let stack: string[] = [];
  let loops: OptLoop[] | null = null;
  let loopStack: OptLoop[] = [];
  for (const line of lines) {
    let m = /^(Post)?DominatorTree for function: (.*)$/.exec(line);
    if (m) {
      tree = new Map();
      stack = [];
      loops = null;
      const info = get(m[2]);
      if (m[1]) info.postdom = tree;
      else info.dom = tree;
      continue;
    }
    m = /^Loop info for function '(.*)':$/.exec(line);
    if (m) {
      tree = null;
      loops = [];
      loopStack = [];
      get(m[1]).loops = loops;
      continue;
    }
    if (tree !== null) {
      m = /^\s*\[(\d+)\]\s+(.*?) \{[0-9,]+\} \[\d+\]$/.exec(line);
      if (m) {
        const level = Number(m[1]);
        const name = m[2].trim() === '<<exit node>>' ? '<<exit>>' : m[2].trim();
        stack.length = level - 1;
        tree.set(name, level === 1 ? null : stack[level - 2]);
        stack.push(name);
      } else if (/^Roots:/.test(line)) tree = null;
      continue;
    }
    if (loops !== null) {
      m = /^\s*(?:Parallel )?Loop at depth (\d+) containing: (.*)$/.exec(line);
      if (m) {
        const depth = Number(m[1]);
        const l: OptLoop = { header: '', blocks: [], latches: [], depth, parent: null };
        for (const item of m[2].split(',')) {
          const mm = /^(.*?)((?:<[a-z]+>)*)$/.exec(item.trim())!;
          const name = mm[1];
          l.blocks.push(name);
          if (mm[2].includes('<header>')) l.header = name;
          if (mm[2].includes('<latch>')) l.latches.push(name);
        }
        loopStack.length = depth - 1;
        l.parent = depth === 1 ? null : loopStack[depth - 2].header;
        loopStack.push(l);
        loops.push(l);
      }
    }
  }
  return out;
}
