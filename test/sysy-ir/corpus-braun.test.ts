// test/sysy and test/sysy/perf through Braun-mode IR generation (with and without on-the-fly folding).
import { corpusSuite } from './corpus-suite.js';

corpusSuite(['braun', 'braun-nofold'], new Set(['braun']));
