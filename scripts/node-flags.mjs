// V8 flags the `ssakit` command runs with (its shebang line; the benchmarks pass the same).
// Parsing builds millions of small long-lived objects; a larger young generation means fewer
// scavenges copying them (about 10% off `opt -S` of a 1M-instruction file, measured with
// bench/parse-print). Memory grows by at most the extra semi-space.
export const V8_FLAGS = ['--max-semi-space-size=64', '--min-semi-space-size=16'];
