/* Classic recursion: Fibonacci (naive and memoised), Ackermann with small arguments,
   Towers of Hanoi, recursive gcd, permutations by swapping, power set by inclusion. */
#include <stdio.h>

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static long long memo[91];
static long long fibm(int n) {
  if (n < 2) return n;
  if (memo[n]) return memo[n];
  return memo[n] = fibm(n - 1) + fibm(n - 2);
}

static int ack(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

static int moves;
static void hanoi(int n, char from, char to, char via) {
  if (n == 0) return;
  hanoi(n - 1, from, via, to);
  moves++;
  if (n >= 4) printf("move disk %d %c->%c\n", n, from, to);
  hanoi(n - 1, via, to, from);
}

static unsigned gcd(unsigned a, unsigned b) { return b ? gcd(b, a % b) : a; }

static int perm_count;
static unsigned perm_hash;
static void permute(char *s, int k, int n) {
  if (k == n) {
    perm_count++;
    for (int i = 0; i < n; i++) perm_hash = perm_hash * 31 + (unsigned char)s[i];
    return;
  }
  for (int i = k; i < n; i++) {
    char t = s[k]; s[k] = s[i]; s[i] = t;
    permute(s, k + 1, n);
    t = s[k]; s[k] = s[i]; s[i] = t;
  }
}

static int subset_sums(const int *v, int n, int target) {
  if (n == 0) return target == 0;
  return subset_sums(v + 1, n - 1, target) + subset_sums(v + 1, n - 1, target - v[0]);
}

int main(void) {
  printf("fib(20)=%d fibm(90)=%lld\n", fib(20), fibm(90));
  for (int m = 0; m <= 2; m++)
    for (int n = 0; n <= 3; n++) printf("ack(%d,%d)=%d%c", m, n, ack(m, n), n == 3 ? '\n' : ' ');
  printf("ack(3,3)=%d\n", ack(3, 3));
  hanoi(6, 'A', 'C', 'B');
  printf("hanoi moves=%d\n", moves);
  printf("gcd: %u %u %u\n", gcd(1071, 462), gcd(4294967295u, 65535u), gcd(17, 0));
  char s[] = "abcdef";
  permute(s, 0, 6);
  printf("perms=%d hash=%u back=%s\n", perm_count, perm_hash, s);
  int v[] = {3, 34, 4, 12, 5, 2, 7, 1, 9, 11};
  printf("subsets summing to 20: %d\n", subset_sums(v, 10, 20));
  return moves % 256;
}
