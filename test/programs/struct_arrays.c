/* Arrays of structs: a small employee database built in a global array, sorted by
   several keys with a hand-written merge sort on indices, grouped and aggregated,
   struct copy assignment into a results array, and searching by name with strcmp. */
#include <stdio.h>
#include <string.h>

struct emp { char name[12]; int dept; int age; long salary; };

static struct emp db[] = {
  {"alice", 2, 34, 98000}, {"bob", 1, 45, 72000}, {"carol", 2, 29, 105000}, {"dave", 3, 51, 66000},
  {"erin", 1, 38, 81000}, {"frank", 3, 23, 52000}, {"grace", 2, 41, 120000}, {"heidi", 1, 30, 72000},
  {"ivan", 4, 60, 90000}, {"judy", 3, 35, 70500}, {"mallory", 4, 27, 61000}, {"oscar", 2, 33, 98000},
};
#define N ((int)(sizeof db / sizeof db[0]))

static int by_salary_desc_name(const struct emp *a, const struct emp *b) {
  if (a->salary != b->salary) return a->salary > b->salary ? -1 : 1;
  return strcmp(a->name, b->name);
}
static int by_dept_age(const struct emp *a, const struct emp *b) {
  if (a->dept != b->dept) return a->dept - b->dept;
  return a->age - b->age;
}

static void sort_idx(int *idx, int n, int (*cmp)(const struct emp *, const struct emp *)) {
  int tmp[64];
  for (int width = 1; width < n; width *= 2) {
    for (int lo = 0; lo < n; lo += 2 * width) {
      int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = cmp(&db[idx[i]], &db[idx[j]]) <= 0 ? idx[i++] : idx[j++];
      while (i < mid) tmp[k++] = idx[i++];
      while (j < hi) tmp[k++] = idx[j++];
    }
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
  }
}

static const struct emp *find(const char *name) {
  for (int i = 0; i < N; i++) if (strcmp(db[i].name, name) == 0) return &db[i];
  return NULL;
}

int main(void) {
  int idx[N];
  for (int i = 0; i < N; i++) idx[i] = i;
  sort_idx(idx, N, by_salary_desc_name);
  printf("by salary:");
  for (int i = 0; i < N; i++) printf(" %s", db[idx[i]].name);
  sort_idx(idx, N, by_dept_age);
  printf("\nby dept/age:");
  for (int i = 0; i < N; i++) printf(" %d:%s", db[idx[i]].dept, db[idx[i]].name);
  printf("\n");
  long total[5] = {0}; int cnt[5] = {0}; int oldest[5] = {-1, -1, -1, -1, -1};
  for (int i = 0; i < N; i++) {
    int d = db[i].dept;
    total[d] += db[i].salary; cnt[d]++;
    if (oldest[d] < 0 || db[i].age > db[oldest[d]].age) oldest[d] = i;
  }
  struct emp top[5];
  int ntop = 0;
  for (int d = 1; d <= 4; d++) {
    printf("dept %d: n=%d avg=%ld oldest=%s\n", d, cnt[d], total[d] / cnt[d], db[oldest[d]].name);
    top[ntop++] = db[oldest[d]];
  }
  top[0].age += 100;
  printf("copy is independent: %d vs %d\n", top[0].age, db[oldest[1]].age);
  const char *queries[] = {"judy", "zed", "alice"};
  int found = 0;
  for (int i = 0; i < 3; i++) {
    const struct emp *e = find(queries[i]);
    if (e) { found++; printf("%s: dept %d age %d\n", e->name, e->dept, e->age); }
    else printf("%s: not found\n", queries[i]);
  }
  return found + ntop * 10;
}
