/**
 * Flattening of brace-enclosed array initializers with C's brace elision
 * (C11 6.7.9 ¶17–21), into (row-major flat index → expression) pairs.
 *
 * For an array with dimensions D[0..n-1], let size(j) = D[j]·…·D[n-1] be the
 * number of scalars in an object of "level" j (level 0 is the whole array,
 * level n a scalar). A brace list for a level-L object with first flat index
 * `base` keeps a cursor `pos` (scalars consumed so far) and reads its items:
 *
 * - an expression initializes the scalar at base+pos, then pos += 1. This is
 *   brace elision: the expression walks down into the first scalar of the
 *   current sub-object, and the following ones fill the rest of it.
 * - a brace list initializes the *current object*: the largest sub-object
 *   that starts at pos, i.e. the level-j object for the smallest j > L with
 *   pos % size(j) == 0 (a level-(L+1) element when pos is on its boundary,
 *   else something smaller, possibly a scalar). Then pos += size(j): the rest
 *   of that sub-object is zero.
 * - an item when pos == size(L) is an excess element.
 *
 * A brace list at scalar level must hold exactly one expression (C allows
 * `int a[2] = {{1}, 2}`); `{}` and `{{1}}` there are errors.
 * Indices come out strictly increasing. Iterative (an explicit stack of open
 * lists), so the depth of braces never grows the JS stack.
 *
 * Example: int a[4][2] = {1, 2, 3, {4}, 5} → a[0]={1,2}, a[1]={3,4}
 * (`{4}` is the current object a[1][1], a scalar), a[2]={5,0}, a[3]={0,0}.
 */

import type { Expr, InitList } from './ast.js';

export interface InitSink {
  /** `expr` initializes the scalar at `index`. */
  element(expr: Expr, index: number): void;
  /** A structural error at source offset `pos`. */
  error(pos: number, message: string): void;
}

interface OpenList {
  list: InitList;
  item: number;
  level: number;
  base: number;
  pos: number;
}

/** Walks `list` as the initializer of an array with `dims` (all ≥ 1). */
export function flattenInitializer(list: InitList, dims: readonly number[], sink: InitSink): void {
  const n = dims.length;
  const size = new Array<number>(n + 1);
  size[n] = 1;
  for (let j = n - 1; j >= 0; j--) size[j] = size[j + 1] * dims[j];

  const stack: OpenList[] = [{ list, item: 0, level: 0, base: 0, pos: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.item >= top.list.items.length) {
      stack.pop();
      continue;
    }
    const item = top.list.items[top.item++];
    if (top.pos >= size[top.level]) {
      sink.error(item.pos, 'excess elements in array initializer');
      stack.pop();
      continue;
    }
    if (item.kind !== 'InitList') {
      sink.element(item, top.base + top.pos);
      top.pos += 1;
      continue;
    }
    let j = top.level + 1;
    while (top.pos % size[j] !== 0) j++;
    const start = top.base + top.pos;
    top.pos += size[j];
    if (j < n) {
      stack.push({ list: item, item: 0, level: j, base: start, pos: 0 });
      continue;
    }
    // A braced scalar: `{e}`.
    if (item.items.length === 0) {
      sink.error(item.pos, 'scalar initializer cannot be empty');
    } else if (item.items[0].kind === 'InitList') {
      sink.error(item.items[0].pos, 'too many braces around scalar initializer');
    } else {
      sink.element(item.items[0], start);
      if (item.items.length > 1) sink.error(item.items[1].pos, 'excess elements in scalar initializer');
    }
  }
}
