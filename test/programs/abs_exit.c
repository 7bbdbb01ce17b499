/* abs, labs and exit(): exit() called from deep inside a call chain with a computed
   status; output printed before exit must be flushed; code after exit never runs. */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>

static int validate(const int *v, int n, int depth);

static void fail_with(int code) {
  printf("fatal: code %d\n", code);
  exit(code);
}

static int validate(const int *v, int n, int depth) {
  if (n == 0) return 0;
  int a = abs(v[0]);
  if (a > 1000) fail_with(60 + depth);
  return a + validate(v + 1, n - 1, depth + 1);
}

int main(void) {
  int xs[] = {5, -5, 0, -1, INT_MAX, INT_MIN + 1, -123456};
  for (int i = 0; i < 7; i++) printf("abs(%d)=%d\n", xs[i], abs(xs[i]));
  long ls[] = {0L, -1L, LONG_MAX, LONG_MIN + 1, -9876543210L};
  for (int i = 0; i < 5; i++) printf("labs(%ld)=%ld\n", ls[i], labs(ls[i]));
  int dist = 0;
  int pts[][2] = {{3, -4}, {-10, 2}, {7, 7}, {0, -9}};
  for (int i = 0; i < 4; i++) dist += abs(pts[i][0] - pts[(i + 1) % 4][0]) + abs(pts[i][1] - pts[(i + 1) % 4][1]);
  printf("manhattan perimeter=%d\n", dist);
  int ok[] = {1, -2, 3, -4};
  printf("validate ok=%d\n", validate(ok, 4, 0));
  int bad[] = {1, -2, 3, -4000, 5};
  printf("validate bad=%d\n", validate(bad, 5, 0));
  printf("never printed\n");
  return 0;
}
