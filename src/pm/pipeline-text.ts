/**
 * A parsed pipeline printed back in the syntax the pipeline parser reads (opt's
 * --print-pipeline-passes): module passes bare, each run of function passes inside
 * `function(...)`, `repeat<N>(...)` and `fixpoint<N>(...)` kept, every pass with its
 * `<params>` as written. `parsePipeline(printPipeline(parsePipeline(s)))` builds the same
 * passes in the same order as `parsePipeline(s)`, so the printed text can be handed back to
 * `-passes=` (test/cli/opt-flags.test.ts checks that for every standard pipeline).
 */
import type { PipelineNode } from './pass-manager.js';

/** Whether a node runs on one function at a time (a function pass, or a loop of them). */
function functionLevel(n: PipelineNode): boolean {
  if ('pass' in n) return n.pass.kind === 'function';
  return n.body.every(functionLevel);
}

function nodeText(n: PipelineNode, inFunction: boolean): string {
  if ('pass' in n) return n.spec ?? n.pass.name;
  const head = 'repeat' in n ? `repeat<${n.repeat}>` : `fixpoint<${n.fixpoint}>`;
  return `${head}(${listText(n.body, inFunction)})`;
}

function listText(nodes: readonly PipelineNode[], inFunction: boolean): string {
  if (inFunction) return nodes.map((n) => nodeText(n, true)).join(',');
  const out: string[] = [];
  for (let i = 0; i < nodes.length; ) {
    if (!functionLevel(nodes[i])) {
      out.push(nodeText(nodes[i++], false));
      continue;
    }
    const run: string[] = [];
    while (i < nodes.length && functionLevel(nodes[i])) run.push(nodeText(nodes[i++], true));
    out.push(`function(${run.join(',')})`);
  }
  return out.join(',');
}

/** The pipeline as text, with opt's nesting (see the file comment). */
export function printPipeline(nodes: readonly PipelineNode[]): string {
  return listText(nodes, false);
}
