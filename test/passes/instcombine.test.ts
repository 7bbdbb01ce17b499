import { describe, expect, it } from 'vitest';
import { bodyAfter, corpusPrograms, describeDifferential, generatedPrograms } from './scalar-helpers.js';

describeDifferential('instcombine keeps behaviour', ['instcombine', 'instcombine,dce'], [...corpusPrograms(), ...generatedPrograms(50)]);
