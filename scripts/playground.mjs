// `npm run playground`: builds the browser playground (web/ -> web/dist, static files)
// and serves it on 127.0.0.1, printing the URL. `--build-only` just builds; `--port N`
// picks the port (default 5180; 0 = any free one).
import { build, preview } from 'vite';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('../web/', import.meta.url));
const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = portArg >= 0 ? Number(args[portArg + 1]) : 5180;

const t0 = performance.now();
await build({ root: web, configFile: `${web}vite.config.ts`, logLevel: 'warn' });
console.log(`playground: built web/dist in ${((performance.now() - t0) / 1000).toFixed(1)} s (static files: host that folder anywhere)`);
if (!args.includes('--build-only')) {
  const server = await preview({ root: web, configFile: `${web}vite.config.ts`, preview: { host: '127.0.0.1', port, strictPort: port !== 0, open: false }, logLevel: 'warn' });
  const url = server.resolvedUrls?.local[0] ?? `http://127.0.0.1:${port}/`;
  console.log(`playground: serving at ${url}  (Ctrl-C to stop)`);
}
