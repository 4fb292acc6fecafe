/**
 * What an event stream remembers of the ids it delivered, so that a resumed
 * stream never delivers an item twice and notices the items it lost.
 *
 * While the ids have been integers that only grew, an integer at or below
 * the highest is a repeat, however old (a server that replays from the start
 * after a resume). Otherwise an id among the last WINDOW delivered is a
 * repeat. While the ids have counted up one by one, the first id after a
 * resume that is more than one above the highest means the events in
 * between were lost: a gap.
 */

const WINDOW = 10_000;

/** The id as an integer when it is one in canonical form (`0`, or up to 15 digits without a leading zero): read once per event, so by hand rather than by a regular expression and Number. */
function integerId(id: string): number | undefined {
  const length = id.length;
  if (length === 0 || length > 15) return undefined;
  if (id.charCodeAt(0) === 48) return length === 1 ? 0 : undefined;
  let n = 0;
  for (let i = 0; i < length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    n = n * 10 + digit;
  }
  return n;
}

export type IdVerdict = "new" | "seen" | "skipped";

export class IdLedger {
  /**
   * The last WINDOW ids in arrival order, as a ring: `next` is where the oldest is once it is full. An id that is
   * an integer is kept as its number (a small integer is no object to the collector), not as the string sliced
   * out of the body, which may keep its whole chunk alive for as long as the id stays in the window.
   */
  private readonly ring: (string | number)[] = [];
  private next = 0;
  /**
   * The ring's ids as a set, made only once the ids stop growing as integers (until then the highest tells
   * repeats apart); a ring rather than the set's own order, since taking a set's first entry after many
   * deletions walks past them all.
   */
  private recent: Set<string> | undefined;
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
    const n = integerId(id);
    const highest = this.highest;
    if (this.growing) {
      if (n !== undefined && highest !== undefined && n <= highest) return "seen";
    } else if (this.recent!.has(id)) return "seen";
    const skipped = this.checkGap && this.consecutive && n !== undefined && highest !== undefined && n > highest + 1;
    this.checkGap = false;
    if (n === undefined || (highest !== undefined && n <= highest)) {
      // no longer growing integers: from here on the window's set tells repeats apart
      if (this.growing) {
        this.growing = false;
        this.recent = new Set(this.ring.map(String));
        if (this.recent.has(id)) return "seen";
      }
      this.consecutive = false;
    } else if (highest !== undefined && n !== highest + 1 && !skipped) this.consecutive = false;
    if (n !== undefined && (highest === undefined || n > highest)) this.highest = n;
    this.remember(n !== undefined && this.growing ? n : id);
    this.previous = id;
    return skipped ? "skipped" : "new";
  }

  private remember(id: string | number): void {
    this.recent?.add(String(id));
    if (this.ring.length < WINDOW) this.ring.push(id);
    else {
      this.recent?.delete(String(this.ring[this.next]!));
      this.ring[this.next] = id;
      this.next = (this.next + 1) % WINDOW;
    }
  }
}
