/**
 * The layers of src/, lowest first: the one place their order is declared (docs/
 * ARCHITECTURE.md describes them; test/architecture/layers.test.ts checks the code keeps
 * to it). A file may import its own layer and the layers listed before it, never one
 * listed after it. Folders grouped in one entry are peers: each may import the layers
 * before the group, but not the other members of the group.
 *
 * A file belongs to the longest folder prefix listed ('transforms/utils/x.ts' to
 * 'transforms/utils', not 'transforms'); '.' is the root (src/index.ts). Every file must
 * belong to a listed folder.
 */
export const LAYERS: readonly (string | readonly string[])[] = [
  // helpers with no knowledge of the IR
  'util',
  // the host: file descriptors, environment, clock (node.ts is the one file that imports Node)
  'platform',
  // the IR: types, values, instructions, blocks, functions, modules, builder, effects
  'ir',
  // LLVM text: lexer, parser, printer, slot numbering
  'text',
  // facts computed from a function without changing it, and the verifier
  'analysis',
  // the pass framework: pass and analysis interfaces, analysis manager, registry, pipeline parser
  'pm',
  // what transforms share: CFG editing, SSA construction and repair, loop canonical form
  'transforms/utils',
  // the passes, grouped as LLVM groups them; no group imports another
  ['transforms/ssa', 'transforms/scalar', 'transforms/instcombine', 'transforms/loop', 'transforms/ipo'],
  // every pass by name, and the standard pipelines
  'passes',
  // `opt` on text: parse, verify, run a pipeline, print; function by function, on threads
  'driver',
  // the users of the middle end
  ['frontend', 'interp', 'viz', 'fuzz'],
  // the command line
  'cli',
  // the library's public API: src/core.ts (for any host) and src/index.ts (core plus the Node driver)
  '.',
];
