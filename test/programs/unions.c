/* Unions: type punning through a union (well defined in C), reading float and double
   bit patterns, tagged unions for a tiny value type, unions inside structs,
   byte views of integers (little-endian target). */
#include <stdio.h>
#include <stdint.h>

union fbits { float f; uint32_t u; };
union dbits { double d; uint64_t u; };
union bytes { uint32_t w; uint8_t b[4]; uint16_t h[2]; };

enum kind { K_INT, K_DBL, K_STR };
struct value { enum kind k; union { long long i; double d; const char *s; } as; };

static struct value vint(long long i) { struct value v; v.k = K_INT; v.as.i = i; return v; }
static struct value vdbl(double d) { struct value v; v.k = K_DBL; v.as.d = d; return v; }
static struct value vstr(const char *s) { struct value v; v.k = K_STR; v.as.s = s; return v; }

static void show(struct value v) {
  switch (v.k) {
  case K_INT: printf("int %lld\n", v.as.i); break;
  case K_DBL: printf("dbl %.3f\n", v.as.d); break;
  case K_STR: printf("str \"%s\"\n", v.as.s); break;
  }
}

static double as_double(struct value v) {
  if (v.k == K_INT) return (double)v.as.i;
  if (v.k == K_DBL) return v.as.d;
  double n = 0;
  for (const char *p = v.as.s; *p; p++) n += *p;
  return n;
}

int main(void) {
  float fs[] = {1.0f, -2.0f, 0.5f, 3.14159f, 0.0f, -0.0f, 1e-3f};
  for (int i = 0; i < 7; i++) {
    union fbits fb; fb.f = fs[i];
    printf("%g -> %08x sign=%u exp=%u mant=%06x\n", (double)fs[i], fb.u, fb.u >> 31, (fb.u >> 23) & 0xff, fb.u & 0x7fffff);
  }
  union dbits db; db.d = 1.0 / 3.0;
  printf("1/3 bits=%016llx\n", (unsigned long long)db.u);
  db.u = 0x400921fb54442d18ull;
  printf("bits->double=%.15f\n", db.d);
  union fbits mk; mk.u = (127u + 4) << 23 | (1u << 22);
  printf("constructed float=%f\n", (double)mk.f);
  union bytes by; by.w = 0xA1B2C3D4u;
  printf("bytes %02x %02x %02x %02x halves %04x %04x\n", by.b[0], by.b[1], by.b[2], by.b[3], by.h[0], by.h[1]);
  by.b[0] = 0xff;
  printf("after byte write w=%08x\n", by.w);
  struct value vals[] = {vint(42), vdbl(2.5), vstr("union"), vint(-7), vdbl(-0.125)};
  double tot = 0;
  for (int i = 0; i < 5; i++) { show(vals[i]); tot += as_double(vals[i]); }
  printf("total=%.3f sizeof(struct value)=%d\n", tot, (int)sizeof(struct value));
  /* fast inverse-sqrt-style bit hack, evaluated on exact inputs */
  union fbits q; q.f = 16.0f;
  q.u = 0x5f3759dfu - (q.u >> 1);
  printf("magic guess for 1/sqrt(16): %.4f\n", (double)q.f);
  return (int)tot;
}
