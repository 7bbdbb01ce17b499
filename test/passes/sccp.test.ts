import { describe, expect, it } from 'vitest';
import { bodyAfter, corpusPrograms, describeDifferential, generatedPrograms } from './scalar-helpers.js';

describeDifferential('sccp keeps behaviour', ['sccp', 'constprop', 'adce', 'sccp,adce,instcombine'], [...corpusPrograms(), ...generatedPrograms(50)]);
