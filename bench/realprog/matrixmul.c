/* Matrix multiply of heap-allocated square int matrices (rows malloc'd), repeated, then
   a few elements printed (the "matrix" shape of benchmark collections). */
#include <stdio.h>
#include <stdlib.h>

#define SIZE 24

static int **mkmatrix(int rows, int cols) {
  int count = 1;
  int **m = malloc(rows * sizeof(int *));
  for (int i = 0; i < rows; i++) {
    m[i] = malloc(cols * sizeof(int));
    for (int j = 0; j < cols; j++) m[i][j] = count++;
  }
  return m;
}

static void freematrix(int rows, int **m) {
  while (--rows > -1) free(m[rows]);
  free(m);
}

static int **mmult(int rows, int cols, int **m1, int **m2, int **m3) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      int val = 0;
      for (int k = 0; k < cols; k++) val += m1[i][k] * m2[k][j];
      m3[i][j] = val;
    }
  return m3;
}

int main(void) {
  int **m1 = mkmatrix(SIZE, SIZE), **m2 = mkmatrix(SIZE, SIZE), **mm = mkmatrix(SIZE, SIZE);
  for (int i = 0; i < 30; i++) mm = mmult(SIZE, SIZE, m1, m2, mm);
  printf("%d %d %d %d\n", mm[0][0], mm[2][3], mm[3][2], mm[4][4]);
  freematrix(SIZE, m1);
  freematrix(SIZE, m2);
  freematrix(SIZE, mm);
  return 0;
}
