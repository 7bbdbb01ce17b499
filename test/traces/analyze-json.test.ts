/**
 * `ssakit analyze --json` against its shipped JSON Schema (docs/analyze.schema.json), with a
 * validator for the keywords the schema uses (type, required, properties,
 * additionalProperties, items, $ref), and the facts a schema cannot say: every map has one
 * key per block; reachIn names defined definitions.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeModule, reportToJson } from '../../src/analysis/report.js';
import { compileSysY } from '../../src/frontend/sysy/index.js';
import { parseModule } from '../../src/text/index.js';

type Schema = Record<string, unknown>;
const ROOT = join(__dirname, '../..');
const schema = JSON.parse(readFileSync(join(ROOT, 'docs/analyze.schema.json'), 'utf8')) as Schema;

function validate(v: unknown, s: Schema, path: string, errors: string[]): void {
  if (typeof s.$ref === 'string') {
    const def = (schema.$defs as Record<string, Schema>)[s.$ref.replace('#/$defs/', '')];
    validate(v, def, path, errors);
    return;
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const t = v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) {
      errors.push(`${path}: ${t} is not ${types.join('|')}`);
      return;
    }
  }
  if (Array.isArray(v) && s.items !== undefined) v.forEach((x, k) => validate(x, s.items as Schema, `${path}[${k}]`, errors));
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    for (const r of (s.required as string[] | undefined) ?? []) if (!(r in o)) errors.push(`${path}: missing ${r}`);
    const props = (s.properties as Record<string, Schema> | undefined) ?? {};
    for (const [k, x] of Object.entries(o)) {
      if (k in props) validate(x, props[k], `${path}.${k}`, errors);
      else if (s.additionalProperties === false) errors.push(`${path}: unexpected ${k}`);
      else if (typeof s.additionalProperties === 'object') validate(x, s.additionalProperties as Schema, `${path}.${k}`, errors);
    }
  }
}

function documents(): { name: string; json: string }[] {
  const out: { name: string; json: string }[] = [];
  for (const f of ['cytron.ll', 'textbook.ll']) {
    const path = join(ROOT, 'test/analysis/fixtures', f);
    out.push({ name: f, json: reportToJson(analyzeModule(parseModule(readFileSync(path, 'utf8'), path))) });
  }
  for (const f of ['lcm.ll', 'sccp-wz.ll', 'braun-users.ll']) {
    const path = join(__dirname, 'fixtures', f);
    out.push({ name: f, json: reportToJson(analyzeModule(parseModule(readFileSync(path, 'utf8'), path))) });
  }
  const dir = join(ROOT, 'test/sysy');
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.sy')).sort().slice(0, 6)) {
    const m = compileSysY(readFileSync(join(dir, f), 'utf8'), f, { ssa: 'alloca' }).module!;
    out.push({ name: f, json: reportToJson(analyzeModule(m)) });
  }
  return out;
}

describe('analyze --json and docs/analyze.schema.json', () => {
  it('every document validates, with one key per block in layout order', () => {
    for (const d of documents()) {
      const doc = JSON.parse(d.json);
      const errors: string[] = [];
      validate(doc, schema, d.name, errors);
      expect(errors).toEqual([]);
      for (const f of doc.functions) {
        for (const key of ['preds', 'succs', 'idom', 'df', 'ipdom', 'cdeps', 'liveIn', 'liveOut', 'reachIn', 'reachOut', 'availIn', 'availOut']) {
          // (a parsed object lists numeric keys first, so the order is checked on the text below)
          expect(new Set(Object.keys(f[key])), `${d.name} ${key}`).toEqual(new Set(f.blocks));
        }
        const ids = new Set(f.definitions.map((x: { id: string }) => x.id));
        for (const b of f.blocks) for (const x of [...f.reachIn[b], ...f.reachOut[b]]) expect(ids.has(x)).toBe(true);
      }
    }
  });

  it('the validator rejects what the schema forbids', () => {
    const doc = JSON.parse(documents()[0].json);
    delete doc.functions[0].availIn;
    doc.functions[0].extra = 1;
    const errors: string[] = [];
    validate(doc, schema, 'doc', errors);
    expect(errors).toEqual(['doc.functions[0]: missing availIn', 'doc.functions[0]: unexpected extra']);
  });
});

describe('dot --graph=cdg', () => {
  it("Cytron et al.'s 12-node program: the edges are the control dependences of §6 (ENTRY for the augmented Entry)", async () => {
    const { functionToDot } = await import('../../src/viz/dot.js');
    const path = join(ROOT, 'test/analysis/fixtures/cytron.ll');
    const fn = parseModule(readFileSync(path, 'utf8'), path).definedFunctions()[0];
    const dot = functionToDot(fn, 'cdg');
    const label = new Map([...dot.matchAll(/ (b\d+) \[shape=record, label="([^"]+)"\]/g)].map((m) => [m[1], m[2]]));
    const deps: Record<string, string[]> = {};
    for (const m of dot.matchAll(/ (b\d+|entry_) -> (b\d+);/g)) (deps[label.get(m[2])!] ??= []).push(m[1] === 'entry_' ? 'ENTRY' : label.get(m[1])!);
    // the table of test/analysis/literature.test.ts (CYTRON_CDEPS), blocks that always run under ENTRY
    expect(Object.fromEntries(Object.entries(deps).map(([k, v]) => [k, v.sort()]))).toEqual({
      Entry: ['ENTRY'], N1: ['Entry'], N2: ['Entry', 'N12'], N3: ['N2'], N4: ['N3'], N5: ['N3'], N6: ['N2'], N7: ['N2'],
      N8: ['Entry', 'N12'], N9: ['Entry', 'N11', 'N12'], N10: ['N9'], N11: ['Entry', 'N11', 'N12'], N12: ['Entry', 'N12'], Exit: ['ENTRY'],
    });
  });
});
