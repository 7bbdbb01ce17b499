/* Multi-dimensional arrays: matrix product, transpose, integer determinant by
   fraction-free Bareiss elimination, 3-D array traversal, passing int (*)[N]. */
#include <stdio.h>

#define N 6

static void matmul(long long c[N][N], const long long a[N][N], const long long b[N][N]) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      long long s = 0;
      for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
}

static long long det_bareiss(long long m[N][N]) {
  long long prev = 1; int sign = 1;
  for (int k = 0; k < N - 1; k++) {
    if (m[k][k] == 0) {
      int r = k + 1;
      while (r < N && m[r][k] == 0) r++;
      if (r == N) return 0;
      for (int j = 0; j < N; j++) { long long t = m[k][j]; m[k][j] = m[r][j]; m[r][j] = t; }
      sign = -sign;
    }
    for (int i = k + 1; i < N; i++)
      for (int j = k + 1; j < N; j++) m[i][j] = (m[i][j] * m[k][k] - m[i][k] * m[k][j]) / prev;
    prev = m[k][k];
  }
  return sign * m[N - 1][N - 1];
}

static int trace3(int (*cube)[4][4], int n) {
  int t = 0;
  for (int i = 0; i < n; i++) t += cube[i][i % 4][(i + 1) % 4];
  return t;
}

int main(void) {
  long long a[N][N], b[N][N], c[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = (i * 7 + j * 3) % 11 - 5;
      b[i][j] = (i == j) ? 2 : (i + 2 * j) % 5 - 2;
    }
  matmul(c, a, b);
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) printf("%5lld", c[i][j]);
    printf("\n");
  }
  long long t[N][N];
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) t[j][i] = c[i][j];
  long long m[N][N];
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) m[i][j] = a[i][j];
  long long da = det_bareiss(m);
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) m[i][j] = b[i][j];
  long long db = det_bareiss(m);
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) m[i][j] = t[i][j];
  long long dc = det_bareiss(m);
  printf("det a=%lld b=%lld c^T=%lld product ok=%d\n", da, db, dc, da * db == dc);
  int cube[5][4][4];
  for (int i = 0; i < 5; i++) for (int j = 0; j < 4; j++) for (int k = 0; k < 4; k++) cube[i][j][k] = i * 16 + j * 4 + k;
  printf("trace3=%d corner=%d\n", trace3(cube, 5), cube[4][3][3]);
  char grid[4][9] = {"#..#..#.", ".##..##.", "...##...", "########"};
  int hashes = 0;
  for (int r = 0; r < 4; r++) for (int col = 0; grid[r][col]; col++) hashes += grid[r][col] == '#';
  printf("hashes=%d\n", hashes);
  return (int)((dc % 200 + 200) % 200) + hashes;
}
