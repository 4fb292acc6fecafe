/**
 * "Did you mean …?": the closest of a few known words to a misspelt one, for
 * an unknown command or a misspelt schema keyword. Close means at most one
 * edit per four letters (Damerau–Levenshtein, a swap of two neighbours
 * counting as one edit), so `generat` finds `generate` and `requried` finds
 * `required`, while an unrelated word finds nothing.
 */

/** Edits (insert, delete, substitute, swap neighbours) between two words. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known word closest to `word` when it is close enough (ties: the first listed), else undefined. */
export function closest(word: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance && d <= Math.max(1, Math.floor(Math.max(word.length, k.length) / 4))) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}
