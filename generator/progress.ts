/**
 * What a long generation is doing, while it does it: on a terminal, one
 * status line on stderr rewritten in place and cleared at the end; with
 * `--progress` off a terminal, one line per step. Without either, nothing
 * (logs and CI output stay as they were).
 */
export interface Progress {
  step(text: string): void;
  /** The files passed on so far, counted as they go by. */
  count<T>(files: Iterable<T>, verb: string): Iterable<T>;
  /** Clears the status line. */
  done(): void;
}

/** Files between two updates of the count (a line per file would flood a log). */
const EVERY = 25;

export function progress(stream: NodeJS.WriteStream, forced: boolean): Progress | undefined {
  const tty = stream.isTTY === true;
  if (!tty && !forced) return undefined;
  let shown = false;
  const step = (text: string) => {
    if (tty) {
      // \r and erase-to-end-of-line: the line is replaced, not appended
      stream.write(`\r\x1b[Kavaspec: ${text}…`);
      shown = true;
    } else stream.write(`avaspec: ${text}…\n`);
  };
  return {
    step,
    *count<T>(files: Iterable<T>, verb: string): Iterable<T> {
      let n = 0;
      for (const f of files) {
        yield f;
        if (++n % EVERY === 0) step(`${verb} ${n} files`);
      }
    },
    done() {
      if (tty && shown) stream.write("\r\x1b[K");
      shown = false;
    },
  };
}
