/** The Node platform: the CLI installs it so `'inherit'` streams use the process's fds on every Node 20. */
import { readSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setFdIO, setModuleLoader } from './index.js';

setFdIO({ readSync: (fd, b, o, l) => readSync(fd, b, o, l, null), writeSync: (fd, b, o, l) => writeSync(fd, b, o, l) });
// CommonJS require: every optional package ssakit loads (@viz-js/viz) ships a CommonJS build
const requireFromHere = createRequire(import.meta.url);
setModuleLoader(async (spec) => requireFromHere(spec));
