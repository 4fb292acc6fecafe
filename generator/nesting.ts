/**
 * Recursion with a depth bound: a task runs at once while fewer than `max`
 * tasks are running inside each other, and waits in a queue otherwise; the
 * outermost task drains the queue, in arrival order, when it ends. Chains of
 * thousands of `$ref`s are then walked one link after the other instead of
 * one inside the other (which overflowed the stack), while ordinary specs
 * keep their order.
 */
export class BoundedNesting {
  private depth = 0;
  private draining = false;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly max: number) {}

  run(task: () => void): void {
    if (this.depth >= this.max) {
      this.queue.push(task);
      return;
    }
    this.nested(task);
    if (this.depth > 0 || this.draining) return;
    this.draining = true;
    try {
      for (let i = 0; i < this.queue.length; i++) this.nested(this.queue[i]!);
    } finally {
      this.queue.length = 0;
      this.draining = false;
    }
  }

  private nested(task: () => void): void {
    this.depth++;
    try {
      task();
    } finally {
      this.depth--;
    }
  }
}
