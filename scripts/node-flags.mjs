// V8 flags the `ssakit` command runs with (its shebang line; the benchmarks pass the same).
// Parsing and IR generation build millions of small objects that live to the end. A young
// generation of fixed size (min = max) makes every scavenge a full-size one, which is when
// V8 acts on its allocation-site feedback and moves allocation sites whose objects nearly
// all survive (Use records and operand arrays, made from literals for this reason) to the
// old space, so they are no longer copied twice through the nursery: scavenge time of
// `ssakit opt -S` on the 1M-instruction file went from about 1.85 s to 0.7 s (--trace-gc).
// The semi-spaces are committed lazily: small runs use no more memory.
//
// A smaller inlining budget for TurboFan (300 bytes of bytecode inlined per function, V8's
// default 920): the compiler's work is warm-up that every run (and every worker thread)
// pays again, and big inlined graphs cost more to compile, and to recompile after each
// deoptimization, than the calls they save on our workloads. Instructions executed
// (cachegrind, --single-threaded so that compiling is counted; budgets 920/460/300/200/150):
// `ssakit opt -O2 -S` on the 100k-instruction file 23.8/21.6/20.7/20.2/20.0 G; `ssakit opt
// -passes=mem2reg -S` on the 1M file 24.4/23.8/23.5 G (920/460/300). Wall time of the former
// 3.41 s → 2.79 s (best of 4); the interpreter's benchmark programs unchanged within noise.
export const V8_FLAGS = ['--max-semi-space-size=64', '--min-semi-space-size=64', '--max-inlined-bytecode-size-cumulative=300'];
