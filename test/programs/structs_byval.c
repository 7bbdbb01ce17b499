/* Structs passed and returned by value (small ones in registers, large ones via
   memory), by pointer, struct assignment copies, nested structs, arrays inside
   structs copied with the struct, and struct members of mixed widths. */
#include <stdio.h>

struct vec2 { int x, y; };
struct vec3d { double x, y, z; };
struct big { int a[10]; char tag; long long sum; };
struct mixed { char c; short s; int i; long long l; float f; double d; };
struct rect { struct vec2 lo, hi; };

static struct vec2 add2(struct vec2 a, struct vec2 b) { struct vec2 r = {a.x + b.x, a.y + b.y}; return r; }
static struct vec2 scale2(struct vec2 a, int k) { a.x *= k; a.y *= k; return a; }
static struct vec3d cross(struct vec3d a, struct vec3d b) {
  return (struct vec3d){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static struct big fill(char tag, int base) {
  struct big b;
  b.tag = tag; b.sum = 0;
  for (int i = 0; i < 10; i++) { b.a[i] = base + i * i; b.sum += b.a[i]; }
  return b;
}
static long long consume(struct big b) {
  b.a[0] = -1000;   /* modifies the callee's copy only */
  long long s = 0;
  for (int i = 0; i < 10; i++) s += b.a[i];
  return s + b.tag;
}
static void grow(struct rect *r, int d) { r->lo.x -= d; r->lo.y -= d; r->hi.x += d; r->hi.y += d; }
static int area(struct rect r) { return (r.hi.x - r.lo.x) * (r.hi.y - r.lo.y); }
static struct mixed mk(int k) {
  struct mixed m = {(char)('a' + k), (short)(k * 1000), k * 100000, (long long)k * 10000000000LL, k * 0.5f, k * 0.25};
  return m;
}

int main(void) {
  struct vec2 p = {3, -4}, q = {10, 20};
  struct vec2 r = add2(scale2(p, 3), q);
  printf("r=(%d,%d) p still (%d,%d)\n", r.x, r.y, p.x, p.y);
  struct vec3d i = {1, 0, 0}, j = {0, 1, 0};
  struct vec3d k = cross(i, j), w = cross((struct vec3d){1.5, -2, 3}, (struct vec3d){0.5, 4, -1});
  printf("k=(%.1f,%.1f,%.1f) w=(%.2f,%.2f,%.2f)\n", k.x, k.y, k.z, w.x, w.y, w.z);
  struct big b = fill('Z', 7);
  long long c = consume(b);
  printf("big sum=%lld consume=%lld a0 still=%d\n", b.sum, c, b.a[0]);
  struct big b2 = b;
  b2.a[9] = 0;
  printf("copy independent: %d vs %d\n", b.a[9], b2.a[9]);
  struct rect rc = {{0, 0}, {4, 3}};
  grow(&rc, 2);
  printf("rect area=%d lo=(%d,%d)\n", area(rc), rc.lo.x, rc.lo.y);
  long long total = 0;
  for (int n = 0; n < 5; n++) {
    struct mixed m = mk(n);
    printf("%c %d %d %lld %.1f %.2f\n", m.c, m.s, m.i, m.l, m.f, m.d);
    total += m.c + m.s + m.i + m.l / 1000000;
  }
  struct vec2 arr[4];
  for (int n = 0; n < 4; n++) arr[n] = scale2(q, n);
  struct vec2 acc = {0, 0};
  for (int n = 0; n < 4; n++) acc = add2(acc, arr[n]);
  printf("acc=(%d,%d) total=%lld\n", acc.x, acc.y, total);
  return (int)(total % 256);
}
