/**
 * opt-19 on IR text (cached by content), for tests whose input is generated IR rather than C.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CACHE_DIR, hasLlvm, OPT, runTool } from '../helpers/llvm.js';

/** opt-19 -passes=`passes` -S on `text`, or null when LLVM is absent. */
export function inputIRFromText(text: string, passes: string): string | null {
  if (!hasLlvm()) return null;
  mkdirSync(CACHE_DIR, { recursive: true });
  const key = createHash('sha1').update(text).update('\0').update(passes).digest('hex').slice(0, 16);
  const out = join(CACHE_DIR, `opt-text-${key}.ll`);
  if (existsSync(out)) return readFileSync(out, 'utf8');
  const inp = join(CACHE_DIR, `opt-text-${key}-in.ll`);
  writeFileSync(inp, text);
  const r = runTool(OPT, [`-passes=${passes}`, '-S', inp, '-o', `${out}.${process.pid}`], { timeout: 300_000 });
  if (r.status !== 0) throw new Error(`opt-19 failed: ${r.stderr}`);
  writeFileSync(out, readFileSync(`${out}.${process.pid}`, 'utf8'));
  return readFileSync(out, 'utf8');
}
