/* Backtracking: N-queens for N = 1..9 with bitmasks (counting solutions and printing
   the first 8-queens board), and a Sudoku solver on a fixed puzzle. */
#include <stdio.h>

static int first[16], have_first;
static int place[16];

static long solve(int n, int row, unsigned cols, unsigned d1, unsigned d2) {
  if (row == n) {
    if (!have_first) { for (int i = 0; i < n; i++) first[i] = place[i]; have_first = 1; }
    return 1;
  }
  long count = 0;
  unsigned avail = ~(cols | d1 | d2) & ((1u << n) - 1);
  while (avail) {
    unsigned bit = avail & -avail;
    avail ^= bit;
    place[row] = __builtin_ctz(bit);
    count += solve(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1);
  }
  return count;
}

static int grid[9][9];
static int ok(int r, int c, int v) {
  for (int i = 0; i < 9; i++) if (grid[r][i] == v || grid[i][c] == v) return 0;
  int br = r / 3 * 3, bc = c / 3 * 3;
  for (int i = 0; i < 3; i++) for (int j = 0; j < 3; j++) if (grid[br + i][bc + j] == v) return 0;
  return 1;
}
static long tries;
static int sudoku(int pos) {
  if (pos == 81) return 1;
  int r = pos / 9, c = pos % 9;
  if (grid[r][c]) return sudoku(pos + 1);
  for (int v = 1; v <= 9; v++) {
    if (!ok(r, c, v)) continue;
    tries++;
    grid[r][c] = v;
    if (sudoku(pos + 1)) return 1;
  }
  grid[r][c] = 0;
  return 0;
}

int main(void) {
  long total = 0;
  for (int n = 1; n <= 9; n++) {
    have_first = 0;
    long s = solve(n, 0, 0, 0, 0);
    total += s;
    printf("queens(%d)=%ld\n", n, s);
    if (n == 8) {
      for (int r = 0; r < 8; r++) { for (int c = 0; c < 8; c++) putchar(first[r] == c ? 'Q' : '.'); putchar('\n'); }
    }
  }
  const char *puzzle =
    "53..7...."
    "6..195..."
    ".98....6."
    "8...6...3"
    "4..8.3..1"
    "7...2...6"
    ".6....28."
    "...419..5"
    "....8..79";
  for (int i = 0; i < 81; i++) grid[i / 9][i % 9] = puzzle[i] == '.' ? 0 : puzzle[i] - '0';
  int solved = sudoku(0);
  printf("sudoku solved=%d tries=%ld\n", solved, tries);
  for (int r = 0; r < 9; r++) { for (int c = 0; c < 9; c++) printf("%d", grid[r][c]); printf("\n"); }
  return (int)(total % 256);
}
