/* Benchmark: dynamic programming. Levenshtein distance with a full 2-D table and
   longest common subsequence with two rolling rows, over PRNG-generated strings
   of 640 characters from a 4-letter alphabet. */
#include <stdio.h>
#include <stdlib.h>

#define L 640

static char s1[L + 1], s2[L + 1];
static int tab[L + 1][L + 1];

static int min3(int a, int b, int c) { int m = a < b ? a : b; return m < c ? m : c; }

int main(void) {
  unsigned x = 7;
  for (int i = 0; i < L; i++) {
    x = x * 1103515245u + 12345u; s1[i] = "ACGT"[(x >> 16) & 3];
    x = x * 1103515245u + 12345u; s2[i] = "ACGT"[(x >> 16) & 3];
  }
  for (int i = 0; i <= L; i++) tab[i][0] = i;
  for (int j = 0; j <= L; j++) tab[0][j] = j;
  for (int i = 1; i <= L; i++)
    for (int j = 1; j <= L; j++)
      tab[i][j] = min3(tab[i - 1][j] + 1, tab[i][j - 1] + 1, tab[i - 1][j - 1] + (s1[i - 1] != s2[j - 1]));
  int *prev = calloc(L + 1, sizeof *prev), *cur = calloc(L + 1, sizeof *cur);
  if (!prev || !cur) return 1;
  for (int i = 1; i <= L; i++) {
    for (int j = 1; j <= L; j++)
      cur[j] = s1[i - 1] == s2[j - 1] ? prev[j - 1] + 1 : (prev[j] > cur[j - 1] ? prev[j] : cur[j - 1]);
    int *t = prev; prev = cur; cur = t;
  }
  int lcs = prev[L];
  printf("edit distance=%d lcs=%d\n", tab[L][L], lcs);
  free(prev); free(cur);
  return (tab[L][L] + lcs) % 256;
}
