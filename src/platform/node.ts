/** The Node platform: the CLI installs it so `'inherit'` streams use the process's fds on every Node 20. */
import { readSync, writeSync } from 'node:fs';
import { setFdIO } from './index.js';

setFdIO({ readSync: (fd, b, o, l) => readSync(fd, b, o, l, null), writeSync: (fd, b, o, l) => writeSync(fd, b, o, l) });
