/** An indentation-aware list of code lines: how the validator compiler writes function bodies. */
export class Lines {
  readonly out: string[] = [];
  private depth = 0;
  line(s: string): void {
    this.out.push("  ".repeat(this.depth) + s);
  }
  /** Lines written elsewhere (at depth 0), indented to this depth. */
  lines(ls: readonly string[]): void {
    for (const l of ls) this.line(l);
  }
  /** A block only when `head` is a test: where the type is already known, its lines are written in place. */
  blockIf(known: boolean, head: string, body: () => void): void {
    if (known) body();
    else this.block(head, body);
  }
  block(head: string, body: () => void): void {
    const start = this.out.length;
    this.line(head === "" ? "{" : `${head} {`);
    this.depth++;
    body();
    this.depth--;
    // an else with nothing in it is noise
    if (head === "else" && this.out.length === start + 1) this.out.pop();
    else this.line("}");
  }
}
