/* Sorting algorithms on the same pseudo-random data, each result verified:
   bubble, insertion, selection, shell, heap, merge (top-down with a buffer),
   quicksort (Lomuto, recursing on the smaller side) and counting sort. */
#include <stdio.h>
#include <string.h>

#define N 300

static void bubble(int *a, int n) { for (int i = 0; i < n; i++) { int sw = 0; for (int j = 0; j + 1 < n - i; j++) if (a[j] > a[j + 1]) { int t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; sw = 1; } if (!sw) break; } }
static void insertion(int *a, int n) { for (int i = 1; i < n; i++) { int v = a[i], j = i - 1; while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; } a[j + 1] = v; } }
static void selection(int *a, int n) { for (int i = 0; i < n; i++) { int m = i; for (int j = i + 1; j < n; j++) if (a[j] < a[m]) m = j; int t = a[i]; a[i] = a[m]; a[m] = t; } }
static void shell(int *a, int n) {
  for (int gap = n / 2; gap > 0; gap /= 2)
    for (int i = gap; i < n; i++) { int v = a[i], j = i; while (j >= gap && a[j - gap] > v) { a[j] = a[j - gap]; j -= gap; } a[j] = v; }
}
static void sift(int *a, int i, int n) {
  for (;;) {
    int l = 2 * i + 1, big = i;
    if (l < n && a[l] > a[big]) big = l;
    if (l + 1 < n && a[l + 1] > a[big]) big = l + 1;
    if (big == i) return;
    int t = a[i]; a[i] = a[big]; a[big] = t; i = big;
  }
}
static void heapsort(int *a, int n) {
  for (int i = n / 2 - 1; i >= 0; i--) sift(a, i, n);
  for (int e = n - 1; e > 0; e--) { int t = a[0]; a[0] = a[e]; a[e] = t; sift(a, 0, e); }
}
static int buf[N];
static void msort(int *a, int lo, int hi) {
  if (hi - lo < 2) return;
  int mid = (lo + hi) / 2;
  msort(a, lo, mid); msort(a, mid, hi);
  int i = lo, j = mid, k = lo;
  while (i < mid && j < hi) buf[k++] = a[i] <= a[j] ? a[i++] : a[j++];
  while (i < mid) buf[k++] = a[i++];
  while (j < hi) buf[k++] = a[j++];
  memcpy(a + lo, buf + lo, (size_t)(hi - lo) * sizeof(int));
}
static void quick(int *a, int lo, int hi) {
  while (lo < hi) {
    int p = a[(lo + hi) / 2], i = lo;
    { int t = a[(lo + hi) / 2]; a[(lo + hi) / 2] = a[hi]; a[hi] = t; }
    for (int j = lo; j < hi; j++) if (a[j] < p) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; }
    { int t = a[i]; a[i] = a[hi]; a[hi] = t; }
    if (i - lo < hi - i) { quick(a, lo, i - 1); lo = i + 1; } else { quick(a, i + 1, hi); hi = i - 1; }
  }
}
static void counting(int *a, int n) {
  static int cnt[2001];
  memset(cnt, 0, sizeof cnt);
  for (int i = 0; i < n; i++) cnt[a[i] + 1000]++;
  int k = 0;
  for (int v = 0; v < 2001; v++) while (cnt[v]--) a[k++] = v - 1000;
}

static unsigned long long digest(const int *a, int n) { unsigned long long h = 1469598103934665603ull; for (int i = 0; i < n; i++) h = (h ^ (unsigned)a[i]) * 1099511628211ull; return h; }
static int sorted(const int *a, int n) { for (int i = 1; i < n; i++) if (a[i - 1] > a[i]) return 0; return 1; }

int main(void) {
  int orig[N], a[N];
  unsigned s = 12345;
  for (int i = 0; i < N; i++) { s = s * 1103515245u + 12345u; orig[i] = (int)((s >> 8) % 2001) - 1000; }
  const char *names[] = {"bubble", "insertion", "selection", "shell", "heap", "merge", "quick", "counting"};
  unsigned long long ref = 0;
  int fails = 0;
  for (int alg = 0; alg < 8; alg++) {
    memcpy(a, orig, sizeof a);
    switch (alg) {
    case 0: bubble(a, N); break;
    case 1: insertion(a, N); break;
    case 2: selection(a, N); break;
    case 3: shell(a, N); break;
    case 4: heapsort(a, N); break;
    case 5: msort(a, 0, N); break;
    case 6: quick(a, 0, N - 1); break;
    default: counting(a, N); break;
    }
    unsigned long long d = digest(a, N);
    if (alg == 0) ref = d;
    int ok = sorted(a, N) && d == ref;
    fails += !ok;
    printf("%-10s ok=%d min=%d median=%d max=%d digest=%016llx\n", names[alg], ok, a[0], a[N / 2], a[N - 1], d);
  }
  return fails * 50 + (int)(ref % 50);
}
