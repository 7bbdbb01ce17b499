// Print one generated program to stdout.
//
//   npx tsx src/fuzz/gen-cli.ts --lang=c|sysy --seed N [--size small|medium|large]
//                               [--large --lines N] [--prelude]
//
// --large is --size large; --lines sets targetLines (large mode, default 100000).
// --prelude (SysY only) prepends SYSY_C_PRELUDE so the output compiles as C.
import { generateCProgram } from './c-gen.js';
import { generateSysYProgram, SYSY_C_PRELUDE } from './sysy-gen.js';

function usage(msg: string): never {
  process.stderr.write(`gen-cli: ${msg}\nusage: gen-cli --lang=c|sysy --seed N [--size small|medium|large] [--large --lines N] [--prelude]\n`);
  process.exit(2);
}

const opts = new Map<string, string>();
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i]!;
  const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
  if (!m) usage(`unexpected argument '${a}'`);
  const key = m[1]!;
  if (m[2] !== undefined) opts.set(key, m[2]);
  else if (key === 'large' || key === 'prelude') opts.set(key, 'true');
  else if (i + 1 < argv.length) opts.set(key, argv[++i]!);
  else usage(`--${key} needs a value`);
}
for (const k of opts.keys()) if (!['lang', 'seed', 'size', 'large', 'lines', 'prelude'].includes(k)) usage(`unknown option --${k}`);

const lang = opts.get('lang') ?? 'c';
if (lang !== 'c' && lang !== 'sysy') usage(`--lang must be c or sysy, not '${lang}'`);
const seed = Number(opts.get('seed') ?? '0');
if (!Number.isInteger(seed)) usage(`--seed must be an integer`);
const size = opts.has('large') ? 'large' : (opts.get('size') ?? 'medium');
if (size !== 'small' && size !== 'medium' && size !== 'large') usage(`--size must be small, medium or large`);
const lines = opts.has('lines') ? Number(opts.get('lines')) : undefined;
if (lines !== undefined && !(lines > 0)) usage('--lines must be a positive number');

const common = { size, ...(lines !== undefined ? { targetLines: lines } : {}) } as const;
const text = lang === 'c'
  ? generateCProgram(seed, common)
  : (opts.has('prelude') ? SYSY_C_PRELUDE : '') + generateSysYProgram(seed, common);
process.stdout.write(text);
