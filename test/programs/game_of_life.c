/* Conway's Game of Life on a 20x20 torus: a glider, a blinker and an R-pentomino
   evolve for 40 generations; population and a hash are printed per 10 generations
   and the final board is drawn. Uses two 2-D char arrays and modular neighbours. */
#include <stdio.h>
#include <string.h>

#define W 20
#define H 20

static unsigned char cur[H][W], nxt[H][W];

static void place(int r, int c, const char *rows[], int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; rows[i][j]; j++)
      if (rows[i][j] == '#') cur[(r + i) % H][(c + j) % W] = 1;
}

static int neighbours(int r, int c) {
  int n = 0;
  for (int dr = -1; dr <= 1; dr++)
    for (int dc = -1; dc <= 1; dc++)
      if (dr || dc) n += cur[(r + dr + H) % H][(c + dc + W) % W];
  return n;
}

static void step(void) {
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++) {
      int n = neighbours(r, c);
      nxt[r][c] = (unsigned char)(n == 3 || (n == 2 && cur[r][c]));
    }
  memcpy(cur, nxt, sizeof cur);
}

static int population(void) { int p = 0; for (int r = 0; r < H; r++) for (int c = 0; c < W; c++) p += cur[r][c]; return p; }
static unsigned hash(void) { unsigned h = 5381; for (int r = 0; r < H; r++) for (int c = 0; c < W; c++) h = h * 33 + cur[r][c]; return h; }

int main(void) {
  const char *glider[] = {".#.", "..#", "###"};
  const char *blinker[] = {"###"};
  const char *rpent[] = {".##", "##.", ".#."};
  place(1, 1, glider, 3);
  place(2, 18, blinker, 1);
  place(12, 8, rpent, 3);
  for (int g = 0; g <= 40; g++) {
    if (g % 10 == 0) printf("gen %2d: population %3d hash %08x\n", g, population(), hash());
    if (g < 40) step();
  }
  for (int r = 0; r < H; r++) {
    for (int c = 0; c < W; c++) putchar(cur[r][c] ? '#' : '.');
    putchar('\n');
  }
  return population();
}
