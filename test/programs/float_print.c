/* printf of floating point: %f %e %g with widths, precisions and flags.
   Values are chosen so that no result is NaN or infinite. */
#include <stdio.h>

static const double vals[] = {0.0, -0.0, 1.0, -1.5, 3.14159265358979, 2.718281828459045,
                              1e-5, 123456.789, -98765.4321, 1e20, 6.02214076e23, 1.0 / 3.0,
                              0.1, 0.5, 2.5, 1234567.0, 9.999999};

int main(void) {
  int n = (int)(sizeof vals / sizeof vals[0]);
  for (int i = 0; i < n; i++) {
    double v = vals[i];
    printf("[%f] [%.0f] [%.2f] [%10.3f] [%-10.1f] [%+.4f]\n", v, v, v, v, v, v);
    printf("[%e] [%.3e] [%12.2e] [%g] [%.3g] [%10.6g] [%#g]]\n", v, v, v, v, v, v, v);
  }
  float f = 1.1f;
  printf("float promoted: %f %.10f %g\n", f, f, f);
  printf("zero pad: [%08.3f] [%+08.2f] [% .3f] [% 8.2e]\n", 3.14159, -2.5, 42.0, 1234.5);
  printf("rounding: %.0f %.0f %.0f %.0f %.1f %.1f\n", 0.5, 1.5, 2.5, -0.5, 0.05, 0.25);
  printf("width: [%10.2f] [%-12.1e]\n", 3.14159, 271.828);
  double x = 1.0;
  for (int i = 0; i < 8; i++) { printf("%.3g|", x); x *= 17.5; }
  printf("\n");
  x = 1.0;
  for (int i = 0; i < 8; i++) { printf("%g|", x); x /= 9.0; }
  printf("\n");
  double sum = 0;
  for (int i = 1; i <= 1000; i++) sum += 1.0 / ((double)i * i);
  printf("basel partial = %.12f\n", sum);
  return (int)(sum * 100) % 256;
}
