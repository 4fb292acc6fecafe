/**
 * Record readers for the JSON streams that are not server-sent events:
 * JSON Lines / NDJSON (`application/jsonl`, `application/x-ndjson`: one JSON
 * text per line, LF or CRLF, blank lines skipped, the last line's LF
 * optional) and JSON text sequences (RFC 7464, `application/json-seq`: each
 * record starts with RS, U+001E). They hand over each record's text; the
 * consumer parses it, so that a malformed record is reported like any other
 * invalid item.
 */
import { StreamEventTooLargeError } from "./errors.js";

export type RecordFormat = "jsonl" | "json-seq";

export interface RecordReader {
  feed(text: string): void;
  /** The stream ended: a last record without its terminator is handed over. */
  end(): void;
}

export function createRecordReader(format: RecordFormat, record: (text: string) => void, maxRecordSize = Number.POSITIVE_INFINITY): RecordReader {
  const separator = format === "jsonl" ? "\n" : "\u001e";
  let pending = "";
  const emit = (text: string) => {
    // a CRLF line end leaves its CR; a json-seq record ends with LF; blank records carry nothing
    const trimmed = text.trim();
    if (trimmed !== "") record(trimmed);
  };
  const tooLarge = (size: number) => new StreamEventTooLargeError(`a record is larger than ${maxRecordSize} characters (maxEventSize): ${size} so far`, maxRecordSize);
  return {
    feed(chunk) {
      const text = pending + chunk;
      pending = "";
      let pos = 0;
      for (let end = text.indexOf(separator); end !== -1; end = text.indexOf(separator, pos)) {
        if (end - pos > maxRecordSize) throw tooLarge(end - pos);
        emit(text.slice(pos, end));
        pos = end + 1;
      }
      if (text.length - pos > maxRecordSize) throw tooLarge(text.length - pos);
      pending = text.slice(pos);
    },
    end() {
      const rest = pending;
      pending = "";
      emit(rest);
    },
  };
}
