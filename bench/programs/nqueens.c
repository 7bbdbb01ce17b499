/* Benchmark: N-queens by recursive backtracking with plain arrays (no bitmasks),
   counting all solutions for N = 9 and 10. Call-heavy with short loops and
   unpredictable branches. */
#include <stdio.h>

static int cols[16];

static int safe(int row, int col) {
  for (int r = 0; r < row; r++) {
    int c = cols[r];
    if (c == col || c - col == r - row || c - col == row - r) return 0;
  }
  return 1;
}

static long solve(int row, int n) {
  if (row == n) return 1;
  long count = 0;
  for (int col = 0; col < n; col++)
    if (safe(row, col)) {
      cols[row] = col;
      count += solve(row + 1, n);
    }
  return count;
}

int main(void) {
  long total = 0;
  for (int n = 9; n <= 10; n++) {
    long s = solve(0, n);
    printf("queens(%d)=%ld\n", n, s);
    total += s;
  }
  return (int)(total % 256);
}
