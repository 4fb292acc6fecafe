/**
 * What a diff reports: a change's class, rule, message and places, the two
 * sides compared, and the list the rules add to (diff/*-rules.ts).
 */
import type { IrDocument } from "../ir/types.js";

export type ChangeClass = "breaking-wire" | "breaking-code" | "deprecation" | "addition" | "documentation";

/** Most severe first. */
export const CHANGE_CLASSES: readonly ChangeClass[] = ["breaking-wire", "breaking-code", "deprecation", "addition", "documentation"];

export interface Place {
  file: string;
  line: number;
  col: number;
  pointer: string;
}

export interface Change {
  rule: string;
  class: ChangeClass;
  message: string;
  /** `GET /v1/chains/{chainId}`, `eth_getBalance` (document-level changes have none). */
  operation?: string;
  old?: Place;
  new?: Place;
}

/** One side of a diff: the module's IR and where its pointers are. */
export interface DiffSide {
  ir: IrDocument;
  locate(file: string, pointer: string): { line: number; col: number };
  /** The document file of schema pointers that belong to no operation (single-document modules: the one file). */
  file: string;
  /** How a file is shown (a revision read into a temporary folder shows as `rev:path`). */
  display?(file: string): string;
}

/** Which way a schema is read: a request narrows when it accepts less, a response breaks when it sends more. */
export type Dir = "request" | "response";

/** Where a change is: its operation, and the file and pointer on each side it has. */
export interface ChangeAt {
  operation?: string;
  old?: [string | undefined, string];
  new?: [string | undefined, string];
}

/** The changes found so far, each placed on its side's file, line and column. */
export class ChangeList {
  readonly list: Change[] = [];

  constructor(
    readonly oldSide: DiffSide,
    readonly newSide: DiffSide,
  ) {}

  private place(side: DiffSide, file: string | undefined, pointer: string): Place {
    const f = file ?? side.file;
    const { line, col } = side.locate(f, pointer);
    return { file: side.display ? side.display(f) : f, line, col, pointer };
  }

  add(rule: string, cls: ChangeClass, message: string, at: ChangeAt): void {
    this.list.push({ rule, class: cls, message, ...(at.operation ? { operation: at.operation } : {}), ...(at.old ? { old: this.place(this.oldSide, at.old[0], at.old[1]) } : {}), ...(at.new ? { new: this.place(this.newSide, at.new[0], at.new[1]) } : {}) });
  }
}

/** A change's operation and the places it has (old, new, or both). */
export const sides = (operation: string, old: [string, string] | undefined, now: [string, string] | undefined) => ({ operation, ...(old ? { old } : {}), ...(now ? { new: now } : {}) });
