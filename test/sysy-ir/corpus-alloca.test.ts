// test/sysy and test/sysy/perf through alloca-mode IR generation, as emitted and after mem2reg.
import { corpusSuite } from './corpus-suite.js';

corpusSuite(['alloca', 'alloca+mem2reg'], new Set(['alloca', 'alloca+mem2reg']));
