/* A bytecode interpreter loop written the way CPython's ceval.c and Lua's lvm.c are
 * with GCC's labels-as-values: a static table of label addresses, one `goto *` per
 * opcode handler ("threaded code"). Runs a few programs of a small stack machine. */
#include <stdio.h>

enum { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_JNZ, OP_DEC, OP_PRINT, OP_POP, OP_HALT };

static int run(const int *code, int trace) {
  static void *dispatch[] = { &&op_push, &&op_add, &&op_sub, &&op_mul, &&op_dup, &&op_swap,
                              &&op_jnz, &&op_dec, &&op_print, &&op_pop, &&op_halt };
  int stack[64];
  int sp = 0;
  const int *pc = code;
  long steps = 0;
#define DISPATCH() do { steps++; if (trace) printf("  [%d] op %d sp %d\n", (int)(pc - code), *pc, sp); goto *dispatch[*pc++]; } while (0)
  DISPATCH();
op_push:
  stack[sp++] = *pc++;
  DISPATCH();
op_add:
  sp--; stack[sp - 1] += stack[sp];
  DISPATCH();
op_sub:
  sp--; stack[sp - 1] -= stack[sp];
  DISPATCH();
op_mul:
  sp--; stack[sp - 1] *= stack[sp];
  DISPATCH();
op_dup:
  stack[sp] = stack[sp - 1]; sp++;
  DISPATCH();
op_swap: {
  int t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t;
  DISPATCH();
}
op_jnz: {
  int target = *pc++;
  if (stack[--sp] != 0) pc = code + target;
  DISPATCH();
}
op_dec:
  stack[sp - 1]--;
  DISPATCH();
op_print:
  printf("%d\n", stack[sp - 1]);
  DISPATCH();
op_pop:
  sp--;
  DISPATCH();
op_halt:
  if (trace) printf("steps %ld\n", steps);
  return sp > 0 ? stack[sp - 1] : 0;
#undef DISPATCH
}

int main(void) {
  /* 7 * 6 - 2 */
  static const int p1[] = { OP_PUSH, 7, OP_PUSH, 6, OP_MUL, OP_PUSH, 2, OP_SUB, OP_PRINT, OP_HALT };
  /* factorial of 10 by a loop: acc n -> acc*n n-1 while n */
  static const int p2[] = { OP_PUSH, 1, OP_PUSH, 10,
                            /* 4: */ OP_DUP, OP_JNZ, 8, OP_HALT,
                            /* 8: */ OP_SWAP, OP_PUSH, 0, OP_ADD, OP_SWAP, OP_DUP, OP_PUSH, 0, OP_ADD,
                            OP_SWAP, OP_POP, OP_SWAP, OP_POP, OP_DUP, OP_PRINT, OP_POP, OP_HALT };
  /* count down from 5, printing each */
  /* (9 + 4) * 3, not printed */
  static const int p4[] = { OP_PUSH, 9, OP_PUSH, 4, OP_ADD, OP_PUSH, 3, OP_MUL, OP_HALT };
  static const int p3[] = { OP_PUSH, 5, /* 2: */ OP_PRINT, OP_DEC, OP_DUP, OP_JNZ, 2, OP_PUSH, 100, OP_ADD, OP_HALT };
  int r1 = run(p1, 0);
  int r2 = run(p2, 0);
  int r3 = run(p3, 1);
  int sum = 0;
  for (int i = 0; i < 2000; i++) sum += run(p4, 0) + i;
  printf("%d %d %d %d\n", r1, r2, r3, sum);
  return (r1 + r2 + r3) & 127;
}
