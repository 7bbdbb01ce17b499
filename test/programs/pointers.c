/* Pointer arithmetic: walking arrays forwards and backwards, pointer differences,
   pointers to pointers, pointer comparison within one array, NULL checks,
   swapping through pointers, returning pointers into arrays. */
#include <stdio.h>
#include <stddef.h>

static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }

static int *find_max(int *begin, int *end) {
  if (begin == end) return NULL;
  int *best = begin;
  for (int *p = begin + 1; p < end; p++) if (*p > *best) best = p;
  return best;
}

static void set_ptr(int **pp, int *target) { *pp = target; }

static long dot(const short *a, const short *b, ptrdiff_t n) {
  long s = 0;
  const short *end = a + n;
  while (a != end) s += (long)*a++ * *b++;
  return s;
}

int main(void) {
  int arr[20];
  for (int i = 0; i < 20; i++) arr[i] = (i * 37) % 23 - 11;
  int *m = find_max(arr, arr + 20);
  printf("max=%d at index %ld\n", *m, (long)(m - arr));
  printf("empty range gives NULL: %d\n", find_max(arr, arr) == NULL);
  int *lo = arr, *hi = arr + 19;
  while (lo < hi) swap(lo++, hi--);
  for (int *p = arr; p != arr + 20; p += 4) printf("%d ", *p);
  printf("\n");
  int *q = NULL;
  set_ptr(&q, &arr[5]);
  printf("q-arr=%ld *q=%d q[2]=%d *(q-3)=%d\n", (long)(q - arr), *q, q[2], *(q - 3));
  int **pp = &q;
  **pp = 1000;
  (*pp)++;
  **pp = 2000;
  printf("arr[5]=%d arr[6]=%d\n", arr[5], arr[6]);
  short v1[8] = {1, -2, 3, -4, 5, -6, 7, -8}, v2[8] = {8, 7, 6, 5, 4, 3, 2, 1};
  printf("dot=%ld\n", dot(v1, v2, 8));
  char text[] = "pointer walking";
  char *s = text, *e = text;
  while (*e) e++;
  printf("len=%ld last=%c\n", (long)(e - s), e[-1]);
  unsigned char bytes[8];
  unsigned long long val = 0x1122334455667788ull;
  unsigned char *bp = (unsigned char *)&val;
  for (int i = 0; i < 8; i++) bytes[i] = bp[i];
  printf("little-endian bytes: %02x %02x ... %02x\n", bytes[0], bytes[1], bytes[7]);
  int matrix[3][5];
  int *flat = &matrix[0][0];
  for (int i = 0; i < 15; i++) flat[i] = i * i;
  printf("matrix[2][3]=%d\n", matrix[2][3]);
  int sum = 0;
  for (int (*row)[5] = matrix; row < matrix + 3; row++) sum += (*row)[4];
  printf("col4 sum=%d\n", sum);
  return sum % 256;
}
