import { corpusPrograms, describeDifferential, generatedPrograms } from './scalar-helpers.js';
describeDifferential('pre keeps behaviour', ['pre', 'gvn,pre,instcombine,pre'], [...corpusPrograms(), ...generatedPrograms(30)]);
