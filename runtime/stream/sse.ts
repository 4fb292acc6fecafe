/**
 * A server-sent events parser that follows the WHATWG HTML standard's
 * "Interpreting an event stream" (§9.2.6) to the letter: one leading BOM
 * dropped, lines ended by CRLF, LF or CR (a CR at the end of one chunk and
 * an LF at the start of the next are one line end), comments, `data` lines
 * joined with LF, `id` ignored when it holds a NUL, `retry` read only when
 * it is ASCII digits, an event dispatched at a blank line and only when it
 * has data, the last event id kept from one event to the next, and an event
 * the stream ends in the middle of dropped.
 *
 * It takes text, not bytes: the caller decodes UTF-8 with a streaming
 * `TextDecoder` told to leave the BOM in (`ignoreBOM: true`), so that the
 * BOM is dropped here, once, as the standard says.
 */
import { StreamEventTooLargeError } from "./errors.js";

/** One dispatched event. */
export interface SseEvent {
  /** The `event` field, or "message". */
  readonly type: string;
  /** The `data` lines, joined with LF. */
  readonly data: string;
  /** The `id` field of this event's own lines, when it had one (what resuming and deduplication go by). */
  readonly id: string | undefined;
  /** The stream's last event id as of this event (an `id` persists until another replaces it). */
  readonly lastEventId: string;
}

export interface SseHandlers {
  event(event: SseEvent): void;
  /** A valid `retry` field: the reconnection time the server asks for, in ms. */
  retry?(ms: number): void;
  /** A comment line (`: keep-alive`), without the colon and one leading space. */
  comment?(text: string): void;
}

export interface SseParserInit {
  /** The last event id to start from (a resumed stream keeps the one it had). */
  lastEventId?: string;
  /** Largest event, in characters of its data and of a line not yet ended; beyond it `feed` throws a StreamEventTooLargeError. */
  maxEventSize?: number;
}

export interface SseParser {
  /** Reads the next piece of the stream; dispatches every event it completes. */
  feed(text: string): void;
  /** The stream ended: an event without its blank line is dropped, as the standard says. */
  end(): void;
  readonly lastEventId: string;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const D = 100;
const I = 105;

export function createSseParser(handlers: SseHandlers, init: SseParserInit = {}): SseParser {
  const max = init.maxEventSize ?? Number.POSITIVE_INFINITY;
  let lastEventId = init.lastEventId ?? "";
  // the standard's "last event ID buffer": set by `id`, never cleared by a dispatch
  let idBuffer = lastEventId;
  let ownId: string | undefined;
  let type = "";
  let data = "";
  let hasData = false;
  let pending = "";
  let atStart = true;
  let skipLf = false;

  const dispatch = () => {
    lastEventId = idBuffer;
    const id = ownId;
    ownId = undefined;
    if (!hasData) {
      type = "";
      return;
    }
    const event: SseEvent = { type: type === "" ? "message" : type, data, id, lastEventId };
    type = "";
    data = "";
    hasData = false;
    handlers.event(event);
  };

  const tooLarge = (size: number) => {
    pending = "";
    data = "";
    hasData = false;
    return new StreamEventTooLargeError(`an event is larger than ${max} characters (maxEventSize): ${size} so far`, max);
  };

  const field = (name: string, value: string) => {
    switch (name) {
      case "data":
        data = hasData ? `${data}\n${value}` : value;
        hasData = true;
        if (data.length > max) throw tooLarge(data.length);
        return;
      case "event":
        type = value;
        return;
      case "id":
        if (!value.includes("\0")) idBuffer = ownId = value;
        return;
      case "retry":
        if (/^[0-9]+$/.test(value)) handlers.retry?.(parseInt(value, 10));
        return;
      default:
      // any other field is ignored
    }
  };

  const line = (text: string, from: number, to: number) => {
    if (from === to) return dispatch();
    const first = text.charCodeAt(from);
    // the two fields of nearly every event, read without slicing out their names
    if (first === D && text.startsWith("data:", from)) return field("data", text.slice(text.charCodeAt(from + 5) === SPACE ? from + 6 : from + 5, to));
    if (first === I && text.startsWith("id:", from)) return field("id", text.slice(text.charCodeAt(from + 3) === SPACE ? from + 4 : from + 3, to));
    if (first === COLON) {
      handlers.comment?.(text.slice(from + (text.charCodeAt(from + 1) === SPACE ? 2 : 1), to));
      return;
    }
    let colon = from;
    while (colon < to && text.charCodeAt(colon) !== COLON) colon++;
    if (colon === to) return field(text.slice(from, to), "");
    const start = text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
    field(text.slice(from, colon), text.slice(Math.min(start, to), to));
  };

  return {
    feed(chunk) {
      if (chunk === "") return;
      if (atStart) {
        atStart = false;
        if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
      }
      if (skipLf && chunk !== "") {
        skipLf = false;
        if (chunk.charCodeAt(0) === LF) chunk = chunk.slice(1);
      }
      const text = pending === "" ? chunk : pending + chunk;
      const n = text.length;
      let pos = 0;
      let cr = text.indexOf("\r");
      let lf = text.indexOf("\n");
      for (;;) {
        if (cr !== -1 && cr < pos) cr = text.indexOf("\r", pos);
        if (lf !== -1 && lf < pos) lf = text.indexOf("\n", pos);
        const end = cr === -1 ? lf : lf === -1 ? cr : cr < lf ? cr : lf;
        if (end === -1) break;
        line(text, pos, end);
        pos = end + 1;
        if (end === cr) {
          if (pos === n) skipLf = true;
          else if (text.charCodeAt(pos) === LF) pos++;
        }
      }
      pending = pos === 0 ? text : text.slice(pos);
      if (pending.length + data.length > max) throw tooLarge(pending.length + data.length);
    },
    end() {
      pending = "";
      data = "";
      hasData = false;
      type = "";
      ownId = undefined;
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}
