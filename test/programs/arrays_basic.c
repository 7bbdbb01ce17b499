/* One-dimensional arrays: prefix sums, in-place reversal and rotation, binary search,
   sliding window maximum, arrays passed to functions as pointers. */
#include <stdio.h>

#define N 64

static void prefix(const int *a, long long *p, int n) {
  p[0] = 0;
  for (int i = 0; i < n; i++) p[i + 1] = p[i] + a[i];
}

static void reverse(int *a, int lo, int hi) {
  while (lo < hi) { int t = a[lo]; a[lo++] = a[hi]; a[hi--] = t; }
}

static void rotate_left(int *a, int n, int k) {
  k %= n;
  reverse(a, 0, k - 1);
  reverse(a, k, n - 1);
  reverse(a, 0, n - 1);
}

static int bsearch_int(const int *a, int n, int key) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == key) return mid;
    if (a[mid] < key) lo = mid + 1; else hi = mid - 1;
  }
  return -(lo + 1);
}

int main(void) {
  int a[N];
  long long p[N + 1];
  unsigned seed = 7;
  for (int i = 0; i < N; i++) { seed = seed * 1664525u + 1013904223u; a[i] = (int)(seed >> 20) - 2048; }
  prefix(a, p, N);
  printf("sum=%lld p[10]=%lld p[33]=%lld\n", p[N], p[10], p[33]);
  long long best = p[1] - p[0]; int bi = 0, bj = 1;
  for (int i = 0; i < N; i++)
    for (int j = i + 1; j <= N; j++)
      if (p[j] - p[i] > best) { best = p[j] - p[i]; bi = i; bj = j; }
  printf("max subarray [%d,%d) = %lld\n", bi, bj, best);
  rotate_left(a, N, 13);
  printf("rotated: %d %d %d ... %d\n", a[0], a[1], a[2], a[N - 1]);
  int sorted[N];
  for (int i = 0; i < N; i++) sorted[i] = i * i - 3 * i;
  for (int k = -5; k < 200; k += 37) printf("find %d -> %d\n", k, bsearch_int(sorted, N, k));
  int win[N - 7];
  for (int i = 0; i + 8 <= N; i++) {
    int m = a[i];
    for (int j = 1; j < 8; j++) if (a[i + j] > m) m = a[i + j];
    win[i] = m;
  }
  int cs = 0;
  for (int i = 0; i < N - 7; i++) cs = (cs * 3 + win[i] % 97) % 100003;
  printf("window checksum=%d\n", cs % 100000);
  int counts[10] = {0};
  for (int i = 0; i < N; i++) counts[(a[i] % 10 + 10) % 10]++;
  for (int d = 0; d < 10; d++) printf("%d:%d ", d, counts[d]);
  printf("\n");
  return counts[3] + counts[7];
}
