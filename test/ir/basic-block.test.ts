/**
 * A block's predecessors come sorted by block id (the printer's `; preds =` comment and the
 * SSA builder rely on it), by an insertion sort for short lists: it must agree with
 * Array.prototype.sort for every length, short and long.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortById, type BasicBlock } from '../../src/ir/basic-block.js';
import { parseModule } from '../../src/text/parser.js';

describe('sortById', () => {
  it('sorts like Array.prototype.sort, in place', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 40 }), (ids) => {
        const blocks = ids.map((id) => ({ id }) as BasicBlock);
        const expected = [...blocks].sort((a, b) => a.id - b.id);
        sortById(blocks);
        expect(blocks).toEqual(expected);
        for (let k = 0; k < blocks.length; k++) expect(blocks[k]).toBe(expected[k]); // stable, the same objects
      }),
    );
  });

  it('orders predecessors by id whatever the order of their branches', () => {
    const m = parseModule(`define void @f(i1 %c) {
entry:
  br label %d
a:
  br label %e
b:
  br label %e
d:
  br i1 %c, label %b, label %a
e:
  ret void
}
`);
    const f = m.functions[0];
    const byName = new Map([...f].map((b) => [b.name, b]));
    expect(byName.get('e')!.predecessors().map((b) => b.name)).toEqual(['a', 'b']);
    expect(byName.get('d')!.predecessors().map((b) => b.name)).toEqual(['entry']);
  });
});
