/* Benchmark: floating point. Mandelbrot escape-time counts over a grid in double
   precision and a small n-body integration in double. Each multiply and add is a
   separate statement so clang emits fmul/fadd, not llvm.fmuladd (which LLVM's own
   interpreter cannot run). No NaN or infinity arises (escape radius 2). */
#include <stdio.h>

#define W 220
#define H 150
#define MAXIT 120

static double px[5], py[5], vx[5], vy[5], m[5];

int main(void) {
  long total = 0;
  int inside = 0;
  for (int y = 0; y < H; y++) {
    for (int x = 0; x < W; x++) {
      double cr = x * (3.0 / W);
      cr = cr - 2.2;
      double ci = y * (2.4 / H);
      ci = ci - 1.2;
      double zr = 0, zi = 0;
      int it = 0;
      while (it < MAXIT) {
        double zr2 = zr * zr;
        double zi2 = zi * zi;
        if (zr2 + zi2 > 4.0) break;
        double t = zr2 - zi2;
        t = t + cr;
        double p = zr * zi;
        zi = p + p;
        zi = zi + ci;
        zr = t;
        it++;
      }
      total += it;
      inside += it == MAXIT;
    }
  }
  printf("mandelbrot total=%ld inside=%d\n", total, inside);
  for (int i = 0; i < 5; i++) { px[i] = i * 1.5; py[i] = (i % 2) ? 1.0 : -1.0; vx[i] = 0; vy[i] = 0.1 * i; m[i] = 1.0 + i; }
  double dt = 0.001;
  for (int step = 0; step < 3000; step++) {
    for (int i = 0; i < 5; i++) {
      double ax = 0, ay = 0;
      for (int j = 0; j < 5; j++) {
        if (i == j) continue;
        double dx = px[j] - px[i];
        double dy = py[j] - py[i];
        double d2 = dx * dx;
        double dy2 = dy * dy;
        d2 = d2 + dy2;
        d2 = d2 + 0.01;
        double inv = 1.0 / (d2 * __builtin_elementwise_sqrt(d2));
        double f = m[j] * inv;
        double fx = f * dx;
        double fy = f * dy;
        ax = ax + fx;
        ay = ay + fy;
      }
      double dvx = ax * dt;
      double dvy = ay * dt;
      vx[i] = vx[i] + dvx;
      vy[i] = vy[i] + dvy;
    }
    for (int i = 0; i < 5; i++) {
      double dx = vx[i] * dt;
      double dy = vy[i] * dt;
      px[i] = px[i] + dx;
      py[i] = py[i] + dy;
    }
  }
  double e = 0;
  for (int i = 0; i < 5; i++) {
    double v2 = vx[i] * vx[i];
    double w2 = vy[i] * vy[i];
    v2 = v2 + w2;
    double k = 0.5 * m[i];
    k = k * v2;
    e = e + k;
  }
  printf("nbody kinetic=%.9f x0=%.6f y4=%.6f\n", e, px[0], py[4]);
  return (int)(total % 256);
}
