/* Nested loops: six counting loops, one increment innermost (the classic
   "nestedloop" shape of benchmark collections). n comes from argv, else a default. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 12;
  int a, b, c, d, e, f, x = 0;
  for (a = 0; a < n; a++)
    for (b = 0; b < n; b++)
      for (c = 0; c < n; c++)
        for (d = 0; d < n; d++)
          for (e = 0; e < n; e++)
            for (f = 0; f < n; f++)
              x++;
  printf("%d\n", x);
  return 0;
}
