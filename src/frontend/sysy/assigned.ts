/**
 * Which local scalars the statements of a function assign, for Braun-mode IR generation
 * (irgen-vars.ts). Two facts come out of one walk over a function body:
 *
 *  - the locals and parameters that some assignment statement targets (`assigned`, by decl
 *    id): the others never change after their declaration, so they need no SSA variable;
 *  - for every `if` and `while`, the locals assigned somewhere inside it. At the join block
 *    after an `if`, and at the header and the exit of a `while`, a variable the statement
 *    does not assign still has the value it had where the statement began, so no phi is
 *    needed for it there. This is how Brandis and Mössenböck place phis for structured
 *    languages ("Single-Pass Generation of Static Single-Assignment Form for Structured
 *    Languages", TOPLAS 16(6), 1994); Braun et al.'s algorithm alone would make each such
 *    phi and then remove it as trivial.
 *
 * Scalars can change only by assignment statements: SysY has no address-of for scalars and
 * no assignment inside expressions, and a declaration's initializer is in its scope's block.
 *
 * Invariants: sets hold decl ids without repeats, at most CAP of them; a statement assigning
 * more gets null ("assume every variable"), which bounds the work and memory by CAP per
 * statement however deep the nesting. No recursion: a breadth-first list of the statements
 * puts every statement after its parent, and the sets are merged upwards in reverse.
 */
import type { Block, DeclStmt, If, Stmt, While } from './ast.js';

/** Largest set kept per statement. */
const CAP = 32;

/** The locals an `if`/`while` assigns (decl ids), or null: too many to list. */
export type AssignedSet = readonly number[] | null;

const NONE: readonly number[] = [];

export class AssignedVariables {
  private readonly sets = new Map<If | While, AssignedSet>();
  /** Statements in the body (blocks and declarations included). */
  readonly statements: number;

  /**
   * Walks `body`; marks in `assigned` (indexed by decl id) the local scalars and parameters
   * an assignment statement targets.
   */
  constructor(body: Block, assigned: Uint8Array) {
    const nodes: (Stmt | DeclStmt)[] = [body];
    const parent: number[] = [-1];
    for (let k = 0; k < nodes.length; k++) {
      const s = nodes[k];
      switch (s.kind) {
        case 'Block':
          for (const x of s.items) {
            nodes.push(x);
            parent.push(k);
          }
          break;
        case 'If':
          nodes.push(s.then);
          parent.push(k);
          if (s.else !== null) {
            nodes.push(s.else);
            parent.push(k);
          }
          break;
        case 'While':
          nodes.push(s.body);
          parent.push(k);
          break;
        default:
          break;
      }
    }
    this.statements = nodes.length;
    // undefined: assigns nothing; null: more than CAP variables
    const own: (number[] | null | undefined)[] = new Array(nodes.length);
    for (let k = nodes.length - 1; k >= 0; k--) {
      const s = nodes[k];
      if (s.kind === 'Assign') {
        const d = s.target.decl!;
        if (s.target.indices.length === 0 && d.storage !== 'global') {
          assigned[d.id] = 1;
          own[k] = [d.id];
        }
      }
      const set = own[k];
      if (s.kind === 'If' || s.kind === 'While') this.sets.set(s, set === undefined ? NONE : set);
      const p = parent[k];
      if (p < 0 || set === undefined) continue;
      own[p] = union(own[p], set);
    }
  }

  /** The locals `s` assigns somewhere inside it (null: assume all). */
  of(s: If | While): AssignedSet {
    return this.sets.get(s) ?? null;
  }
}

/** `into` ∪ `from` (`into` is updated in place; `from`, which a statement may keep, is not). */
function union(into: number[] | null | undefined, from: readonly number[] | null): number[] | null {
  if (into === null || from === null) return null;
  if (into === undefined) return from.slice();
  for (const x of from) {
    if (into.includes(x)) continue;
    if (into.length === CAP) return null;
    into.push(x);
  }
  return into;
}
