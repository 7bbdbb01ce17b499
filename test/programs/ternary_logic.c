/* Ternaries (nested, as lvalue-selecting pointers, with side effects only in the
   chosen arm) and short-circuit && / || whose right operands have side effects that
   must happen exactly when evaluation reaches them. */
#include <stdio.h>
#include <stdbool.h>

static int calls;
static bool t(int id) { calls += id; return true; }
static bool f(int id) { calls += id * 100; return false; }

static const char *sign_name(int x) { return x > 0 ? "pos" : x < 0 ? "neg" : "zero"; }
static int clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

int main(void) {
  int r = 0;
  r += (f(1) && t(2)) ? 1 : 0;
  r += (t(3) || f(4)) ? 10 : 0;
  r += (f(5) || (t(6) && f(7))) ? 100 : 0;
  r += (t(8) && t(9) && t(1)) ? 1000 : 0;
  r += (f(2) || f(3) || t(4)) ? 10000 : 0;
  printf("r=%d calls=%d\n", r, calls);
  int vals[] = {-5, 0, 7, 100, -1000};
  for (int i = 0; i < 5; i++) printf("%d:%s:%d ", vals[i], sign_name(vals[i]), clamp(vals[i], -10, 50));
  printf("\n");
  int a = 3, b = 4;
  *(a > b ? &a : &b) += 10;
  printf("a=%d b=%d\n", a, b);
  int k = 0, side = 0;
  int v = k ? (side += 1) : (side += 2);
  printf("v=%d side=%d\n", v, side);
  int *p = 0;
  int ok = p && *p > 0;
  int arr[3] = {1, 2, 3};
  int i = 5;
  int safe = i < 3 && arr[i] > 0;
  printf("ok=%d safe=%d\n", ok, safe);
  int count = 0;
  for (int x = 0; x < 30; x++) {
    bool div3 = x % 3 == 0, div5 = x % 5 == 0;
    count += div3 && div5 ? 15 : div3 ? 3 : div5 ? 5 : !(x & 1);
  }
  printf("count=%d\n", count);
  unsigned mask = 0;
  for (int x = 0; x < 32; x++) if ((x & 1 || x % 7 == 0) && !(x > 20 && x < 25)) mask |= 1u << x;
  printf("mask=%08x\n", mask);
  double d = 2.5;
  long long w = d > 2 ? (long long)(d * 4) : -1;
  float fl = a > 0 ? 1.5f : 2.5f;
  printf("w=%lld fl=%.1f bool=%d %d\n", w, fl, (bool)7, (bool)0.0);
  return calls % 256;
}
