export { parseModule } from './parser.js';
export { printModule, printFunction, printInstruction, printValue, blockLabel } from './printer.js';
export { functionSlots, FunctionSlots } from './slots.js';
