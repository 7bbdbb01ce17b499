/**
 * "Did you mean …?" for a misspelt name: the closest candidate by edit distance
 * (fastest-levenshtein), when it is close enough to be a plausible typo: at most a third
 * of the word's length, and at most 3 edits.
 */
import { distance } from 'fastest-levenshtein';

export function closestName(word: string, candidates: Iterable<string>): string | null {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(word, c);
    if (d < bestD || (d === bestD && best !== null && c < best)) {
      best = c;
      bestD = d;
    }
  }
  return bestD <= limit ? best : null;
}

/** ` (did you mean 'x'?)`, or '' when no candidate is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const c = closestName(word, candidates);
  return c === null ? '' : ` (did you mean '${c}'?)`;
}
