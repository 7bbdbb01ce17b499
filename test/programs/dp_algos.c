/* Dynamic programming: longest common subsequence with reconstruction, Levenshtein
   distance with a rolling row, 0/1 knapsack, coin change counting (long long),
   longest increasing subsequence in O(n log n), and matrix-chain order. */
#include <stdio.h>
#include <string.h>

static int lcs(const char *a, const char *b, char *out) {
  int n = (int)strlen(a), m = (int)strlen(b);
  static int t[41][41];
  for (int i = 0; i <= n; i++)
    for (int j = 0; j <= m; j++)
      t[i][j] = (!i || !j) ? 0 : a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : t[i - 1][j] > t[i][j - 1] ? t[i - 1][j] : t[i][j - 1];
  int k = t[n][m], i = n, j = m;
  out[k] = 0;
  while (i && j) {
    if (a[i - 1] == b[j - 1]) { out[--k] = a[i - 1]; i--; j--; }
    else if (t[i - 1][j] >= t[i][j - 1]) i--; else j--;
  }
  return t[n][m];
}

static int lev(const char *a, const char *b) {
  int m = (int)strlen(b);
  int row[64];
  for (int j = 0; j <= m; j++) row[j] = j;
  for (int i = 1; a[i - 1]; i++) {
    int diag = row[0];
    row[0] = i;
    for (int j = 1; j <= m; j++) {
      int up = row[j];
      int best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[m];
}

static int knapsack(const int *w, const int *v, int n, int cap) {
  int best[101] = {0};
  for (int i = 0; i < n; i++)
    for (int c = cap; c >= w[i]; c--)
      if (best[c - w[i]] + v[i] > best[c]) best[c] = best[c - w[i]] + v[i];
  return best[cap];
}

static long long coin_ways(const int *coins, int n, int amount) {
  long long ways[1001] = {1};
  for (int i = 0; i < n; i++)
    for (int a = coins[i]; a <= amount; a++) ways[a] += ways[a - coins[i]];
  return ways[amount];
}

static int lis(const int *v, int n) {
  int tails[64], len = 0;
  for (int i = 0; i < n; i++) {
    int lo = 0, hi = len;
    while (lo < hi) { int mid = (lo + hi) / 2; if (tails[mid] < v[i]) lo = mid + 1; else hi = mid; }
    tails[lo] = v[i];
    if (lo == len) len++;
  }
  return len;
}

static long long matrix_chain(const int *d, int n) {
  long long c[10][10];
  for (int i = 0; i < n; i++) c[i][i] = 0;
  for (int len = 2; len <= n; len++)
    for (int i = 0; i + len - 1 < n; i++) {
      int j = i + len - 1;
      c[i][j] = -1;
      for (int k = i; k < j; k++) {
        long long cost = c[i][k] + c[k + 1][j] + (long long)d[i] * d[k + 1] * d[j + 1];
        if (c[i][j] < 0 || cost < c[i][j]) c[i][j] = cost;
      }
    }
  return c[0][n - 1];
}

int main(void) {
  char out[41];
  const char *pairs[][2] = {{"AGGTAB", "GXTXAYB"}, {"dynamic programming", "dramatic programmer"}, {"kitten", "sitting"}, {"", "abc"}};
  int total = 0;
  for (int i = 0; i < 4; i++) {
    int l = lcs(pairs[i][0], pairs[i][1], out), d = lev(pairs[i][0], pairs[i][1]);
    printf("lcs('%s','%s')=%d '%s' lev=%d\n", pairs[i][0], pairs[i][1], l, out, d);
    total += l + d;
  }
  int w[] = {12, 7, 11, 8, 9, 6, 5, 14, 3, 10}, v[] = {24, 13, 23, 15, 16, 11, 8, 30, 4, 19};
  printf("knapsack(50)=%d knapsack(100)=%d\n", knapsack(w, v, 10, 50), knapsack(w, v, 10, 100));
  int coins[] = {1, 2, 5, 10, 20, 50, 100, 200};
  printf("ways(200)=%lld ways(1000)=%lld\n", coin_ways(coins, 8, 200), coin_ways(coins, 8, 1000));
  int seq[50];
  unsigned s = 1;
  for (int i = 0; i < 50; i++) { s = s * 69069u + 1u; seq[i] = (int)(s >> 24); }
  printf("lis=%d\n", lis(seq, 50));
  int dims[] = {40, 20, 30, 10, 30, 5, 60, 8, 12, 25};
  printf("matrix chain=%lld\n", matrix_chain(dims, 9));
  return total;
}
