/**
 * What can go wrong in a stream of items over HTTP, as typed errors: an
 * event larger than the consumer allows, an event whose data is not the
 * JSON the spec promises, and a gap the server could not fill.
 */
import { AvaspecError, ValidationError, type RequestInfo, type ValidationIssue } from "../errors/errors.js";

/** One event (or line) grew past the stream's `maxEventSize`: the stream ends, since what follows it cannot be trusted to start an event. */
export class StreamEventTooLargeError extends AvaspecError {
  override name = "StreamEventTooLargeError";
  /** The limit, in characters. */
  readonly limit: number;
  constructor(message: string, limit: number, request?: RequestInfo) {
    super(message, request);
    this.limit = limit;
  }
}

/** An event's data (or a line) is not valid JSON: dropped and reported like an item that fails its schema (`onInvalid`), or the end of the stream under `validateResponse: "strict"`. */
export class MalformedEventError extends ValidationError {
  override name = "MalformedEventError";
  constructor(message: string, init: { request?: RequestInfo; issues: ValidationIssue[]; rawBody: string; cause?: unknown }) {
    super(message, init);
    if (init.cause !== undefined) Object.defineProperty(this, "cause", { value: init.cause, configurable: true, writable: true });
  }
}

/** What a resumed stream lost. */
export interface StreamGap {
  /** The id of the last event delivered before the connection dropped. */
  lastEventId: string;
  /** "refused": the server answered the resume with a status (`status`) and the stream started afresh; "skipped": the ids are consecutive integers and the first one after the resume is not the next. */
  reason: "refused" | "skipped";
  status?: number;
  /** The id of the first event delivered after the gap, when known. */
  nextEventId?: string;
}

/** A stream lost events it could not get back, and no `onGap` callback was there to hear it: the stream ends rather than go on with a silent hole. */
export class StreamGapError extends AvaspecError {
  override name = "StreamGapError";
  readonly gap: StreamGap;
  constructor(message: string, gap: StreamGap, request?: RequestInfo) {
    super(message, request);
    this.gap = gap;
  }
}
