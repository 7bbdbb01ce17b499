/**
 * clang -O0 marks every function `noinline` (and `optnone` unless -disable-O0-optnone), and
 * our inliner respects it as LLVM's does; tests and benchmarks of inlining strip the
 * attribute from the input first, as the benchmarks do.
 */

/** Removes `noinline` and `optnone` from attribute groups and inline function attributes. */
export function stripNoinline(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (!/^attributes #\d+ = \{/.test(line) && !/^define /.test(line)) return line;
      return line.replace(/(^|[\s{])(noinline|optnone)(?=[\s}]|$)/g, '$1').replace(/\{\s+/, '{ ').replace(/ {2,}/g, ' ');
    })
    .join('\n');
}
