/**
 * `ssakit dot FILE.ll --function NAME --graph=cfg|domtree|postdomtree|df|loops|cdg`: Graphviz DOT
 * of one function, or SVG with `--svg` (rendered in-process by @viz-js/viz). Wiring only:
 * see src/viz/.
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import { selectFunctions } from '../../analysis/report.js';
import { parseModule } from '../../text/parser.js';
import { GRAPH_KINDS, GraphKind, functionToDot } from '../../viz/dot.js';
import { renderSvg } from '../../viz/svg.js';
import { CliError, loadedSources, readInput, writeOutput, rejectSourceLanguage } from '../common.js';

interface DotFlags {
  function?: string;
  graph: GraphKind;
  svg?: boolean;
  output?: string;
}

export function register(program: Command): void {
  program
    .command('dot')
    .description('write a Graphviz graph of a function: its CFG, dominator or post-dominator tree, frontiers, loops, or control-dependence graph (cdg)')
    .argument('<file>', 'LLVM IR text file (.ll), or - for stdin')
    .option('--function <name>', 'the function to draw (required when the module defines several)')
    .addOption(new Option('--graph <kind>', 'what to draw').choices([...GRAPH_KINDS]).default('cfg'))
    .option('--svg', 'render to SVG instead of DOT')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action(async (file: string, flags: DotFlags) => {
      rejectSourceLanguage(file);
      const text = readInput(file);
      loadedSources.set(file, text);
      const m = parseModule(text, file);
      let fns;
      try {
        fns = selectFunctions(m, flags.function);
      } catch (e) {
        throw new CliError(`ssakit dot: error: ${(e as Error).message}`);
      }
      if (fns.length !== 1) {
        throw new CliError(`ssakit dot: error: the module defines ${fns.length === 0 ? 'no functions' : `several functions (${fns.map((f) => '@' + f.name).join(', ')})`}; choose one with --function NAME`);
      }
      const dot = functionToDot(fns[0], flags.graph);
      writeOutput(flags.output, flags.svg ? await renderSvg(dot) : dot);
    });
}
