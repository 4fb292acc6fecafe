/**
 * What a subscription lets through to its consumer: each payload, whether a
 * notification or an event fetched to fill a gap, is checked before it is
 * ordered, deduplicated or delivered.
 *
 * Two checks. The transport's own, in every `validateResponse` mode: a
 * payload must exist (a notification without `result` carries nothing),
 * and a kind that is ordered and backfilled must carry what the order and
 * deduplication read: a head its `number` (a quantity) and `hash`, a log its
 * `blockNumber`, `blockHash` and key fields. Without them the payload cannot
 * be placed, and delivering it would break the stream's promises (in order,
 * each once). Then, with "warn" or "strict", the kind's schema: the
 * generated check of the payload (`…Results` holds it by the kind's
 * descriptor, as it holds each method's result check).
 *
 * A payload that fails is never delivered. With "strict" it ends the
 * subscription with a `ValidationError`, as a call's bad response throws
 * one; otherwise it is dropped and reported (`onInvalid`, else a console
 * warning), and the stream goes on: a dropped head is fetched again by
 * number when the next one arrives.
 */
import { ValidationError, type RequestInfo, type ValidationIssue } from "../errors/errors.js";
import type { ResponseValidation, ResultChecks } from "../http/http.js";
import type { SubscriptionKind } from "./types.js";

/** Checks one payload; false when it must not be delivered (it has been reported, or has ended the subscription). `what` names it in messages. */
export type PayloadGate = (payload: unknown, what?: string) => boolean;

export interface GateInit {
  kind: SubscriptionKind;
  mode: ResponseValidation;
  checks: ResultChecks | undefined;
  request: RequestInfo;
  /** A payload dropped, under "off" and "warn". */
  drop(error: ValidationError): void;
  /** A payload refused under "strict": the subscription ends with it. */
  fail(error: ValidationError): void;
}

const QUANTITY = /^(0[xX][0-9a-fA-F]+|[0-9]+)$/;
const pointer = (key: string) => "/" + key.replace(/~/g, "~0").replace(/\//g, "~1");

/** The first reason the transport cannot order or tell apart a payload of `kind`, if any. */
function placementIssue(kind: SubscriptionKind, payload: unknown): ValidationIssue | undefined {
  const b = kind.backfill;
  if (b === undefined) return undefined;
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return { path: "", message: "must be an object" };
  const p = payload as Record<string, unknown>;
  const height = b.by === "blocks" ? "number" : "blockNumber";
  const value = p[height];
  if (typeof value !== "string" || !QUANTITY.test(value)) return { path: pointer(height), message: "must be a block number (0x-hex or decimal digits)" };
  const hash = b.by === "blocks" ? "hash" : "blockHash";
  if (typeof p[hash] !== "string") return { path: pointer(hash), message: "must be a string (the block's hash)" };
  if (b.by === "range") {
    for (const key of b.key) {
      const v = p[key];
      if (typeof v !== "string" && typeof v !== "number") return { path: pointer(key), message: "must be a string or a number (events are told apart by it)" };
    }
  }
  return undefined;
}

export function payloadGate(init: GateInit): PayloadGate {
  const { kind, mode } = init;
  const check = mode === "off" ? undefined : init.checks?.get(kind);
  return (payload, what = "a notification") => {
    let issues: ValidationIssue[] | undefined;
    if (payload === undefined) issues = [{ path: "", message: "has no result" }];
    else {
      const placement = placementIssue(kind, payload);
      if (placement) issues = [placement];
      else if (check && !check(payload, "", null)) check(payload, "", (issues = []));
    }
    if (issues === undefined) return true;
    const strict = mode === "strict";
    const first = issues[0] ?? { path: "", message: "is not valid" };
    const message = payload === undefined ? `${kind.kind}: ${what} without a result${strict ? "" : " was dropped"}` : `${kind.kind}: ${what} that does not match the spec${strict ? "" : " was dropped"}: ${first.path || "/"} ${first.message}`;
    const error = new ValidationError(message, { request: init.request, issues, ...(payload === undefined ? {} : { rawBody: JSON.stringify(payload) }) });
    if (strict) init.fail(error);
    else init.drop(error);
    return false;
  };
}
