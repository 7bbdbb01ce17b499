// V8 flags the `ssakit` command runs with (its shebang line; the benchmarks pass the same).
// Parsing and IR generation build millions of small objects that live to the end. A young
// generation of fixed size (min = max) makes every scavenge a full-size one, which is when
// V8 acts on its allocation-site feedback and moves allocation sites whose objects nearly
// all survive (Use records and operand arrays, made from literals for this reason) to the
// old space, so they are no longer copied twice through the nursery: scavenge time of
// `ssakit opt -S` on the 1M-instruction file went from about 1.85 s to 0.7 s (--trace-gc).
// The semi-spaces are committed lazily: small runs use no more memory.
export const V8_FLAGS = ['--max-semi-space-size=64', '--min-semi-space-size=64'];
