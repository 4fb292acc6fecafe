/**
 * What an event stream remembers of the ids it delivered, so that a resumed
 * stream never delivers an item twice and notices the items it lost.
 *
 * An id delivered among the last WINDOW is a repeat. While the ids have been
 * integers that only grew, an integer at or below the highest is a repeat
 * too, however old (a server that replays from the start after a resume).
 * While they have counted up one by one, the first id after a resume that
 * is more than one above the highest means the events in between were lost:
 * a gap. Ids of any other shape are told apart by the window alone.
 */

const WINDOW = 10_000;
const INTEGER = /^(0|[1-9][0-9]{0,14})$/;

export type IdVerdict = "new" | "seen" | "skipped";

export class IdLedger {
  private readonly recent = new Set<string>();
  private highest: number | undefined;
  private growing = true;
  private consecutive = true;
  private checkGap = false;
  /** The last id admitted. */
  previous: string | undefined;

  /** The next event comes after a resume: it tells whether the server skipped any. */
  resumed(): void {
    this.checkGap = true;
  }

  /** The stream starts afresh after a refused resume: the next id is no evidence of a gap. */
  afterGap(): void {
    this.checkGap = false;
  }

  admit(id: string): IdVerdict {
    if (this.recent.has(id)) return "seen";
    const n = INTEGER.test(id) ? Number(id) : undefined;
    const highest = this.highest;
    if (n !== undefined && highest !== undefined && this.growing && n <= highest) return "seen";
    const skipped = this.checkGap && this.consecutive && n !== undefined && highest !== undefined && n > highest + 1;
    this.checkGap = false;
    if (n === undefined) this.growing = this.consecutive = false;
    else if (highest !== undefined) {
      // a reported gap leaves the count going on from the new id
      if (n !== highest + 1 && !skipped) this.consecutive = false;
      if (n <= highest) this.growing = false;
    }
    if (n !== undefined && (highest === undefined || n > highest)) this.highest = n;
    this.recent.add(id);
    if (this.recent.size > WINDOW) this.recent.delete(this.recent.values().next().value as string);
    this.previous = id;
    return skipped ? "skipped" : "new";
  }
}
