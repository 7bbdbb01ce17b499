/* Enums and typedefs: enum constants with explicit and implicit values, enum-indexed
   tables, typedef'd structs, function pointer and array typedefs, a small traffic-
   light state machine driven by an enum. */
#include <stdio.h>
#include <stdint.h>

typedef enum { NORTH, EAST, SOUTH, WEST, NDIRS } dir_t;
typedef enum { RED = 10, RED_AMBER, GREEN = 20, AMBER } light_t;
enum flags { F_READ = 1 << 0, F_WRITE = 1 << 1, F_EXEC = 1 << 2, F_ALL = F_READ | F_WRITE | F_EXEC };

typedef int32_t coord;
typedef struct { coord x, y; dir_t facing; } robot_t;
typedef void (*cmd_fn)(robot_t *);
typedef int row_t[4];

static const int dx[NDIRS] = {[NORTH] = 0, [EAST] = 1, [SOUTH] = 0, [WEST] = -1};
static const int dy[NDIRS] = {[NORTH] = 1, [EAST] = 0, [SOUTH] = -1, [WEST] = 0};
static const char *const dname[NDIRS] = {"N", "E", "S", "W"};

static void fwd(robot_t *r) { r->x += dx[r->facing]; r->y += dy[r->facing]; }
static void left(robot_t *r) { r->facing = (dir_t)((r->facing + NDIRS - 1) % NDIRS); }
static void right(robot_t *r) { r->facing = (dir_t)((r->facing + 1) % NDIRS); }

static light_t next_light(light_t l) {
  switch (l) {
  case RED: return RED_AMBER;
  case RED_AMBER: return GREEN;
  case GREEN: return AMBER;
  case AMBER: return RED;
  }
  return RED;
}

static int row_sum(const row_t r) { return r[0] + r[1] + r[2] + r[3]; }

int main(void) {
  printf("enum values: %d %d %d %d | %d %d %d %d | %d\n", NORTH, EAST, SOUTH, WEST, RED, RED_AMBER, GREEN, AMBER, F_ALL);
  robot_t r = {0, 0, NORTH};
  cmd_fn cmds[] = {fwd, fwd, right, fwd, fwd, fwd, left, left, fwd, right, right, fwd};
  for (unsigned i = 0; i < sizeof cmds / sizeof cmds[0]; i++) cmds[i](&r);
  printf("robot at (%d,%d) facing %s\n", r.x, r.y, dname[r.facing]);
  const char *program = "FFRFFLFFFRRFLF";
  robot_t r2 = {5, 5, WEST};
  for (const char *p = program; *p; p++) (*p == 'F' ? fwd : *p == 'L' ? left : right)(&r2);
  printf("robot2 at (%d,%d) facing %s\n", r2.x, r2.y, dname[r2.facing]);
  light_t l = RED;
  int green_count = 0;
  for (int t = 0; t < 11; t++) { printf("%d ", l); if (l == GREEN) green_count++; l = next_light(l); }
  printf("\n");
  int perms = F_READ | F_EXEC;
  printf("can write=%d can exec=%d\n", (perms & F_WRITE) != 0, (perms & F_EXEC) != 0);
  row_t m[3] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
  int tot = 0;
  for (int i = 0; i < 3; i++) tot += row_sum(m[i]);
  printf("rows total=%d sizeof(row_t)=%d sizeof(dir_t)=%d\n", tot, (int)sizeof(row_t), (int)sizeof(dir_t));
  return r.x * 10 + r.y + green_count + tot;
}
