/* Benchmark: call-heavy recursion (naive Fibonacci, Ackermann) — frames, arguments, returns. */
#include <stdio.h>

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int ack(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

int main(void) {
  printf("fib(27) = %d\n", fib(27));
  printf("ack(2, 2000) = %d\n", ack(2, 2000));
  return 0;
}
