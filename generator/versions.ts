/**
 * The package version follows what changed in the spec documents. The
 * previous output's `versions.json` (a ledger, like a lockfile: the one piece
 * of state carried from one generation to the next) records each document's
 * `info.version` and the releases so far, and the previous output's
 * `spec/*.json` are the documents as that release shipped them. A new
 * generation diffs each document against its shipped copy (`avaspec diff`'s
 * engine) and releases when anything changed, bumping the package by the
 * largest change:
 *
 * - breaking (`breaking-wire`, `breaking-code`), or a document removed → major;
 * - an addition or a deprecation, or a document added → minor;
 * - documentation only → patch.
 *
 * Below 1.0.0 the minor plays the major's role (0.3.0 → 0.4.0 for a breaking
 * change, 0.3.0 → 0.3.1 otherwise), as Cargo and oasdiff read semver. A
 * document's own `info.version` counts too: a bigger bump than its changes
 * need is honoured (the author knows of a change the diff cannot see), a
 * smaller one is an error at its `#/info/version` (a warning when the caller
 * says so), and a version that goes down is always an error.
 *
 * Without a ledger the package starts at the highest document version.
 * Nothing here reads the clock, so output stays byte-identical.
 */
import { CHANGE_CLASSES, summarize, type ChangeClass } from "./diff/index.js";
import type { Diagnostic } from "./load/diagnostics.js";

export const LEDGER_FILE = "versions.json";

/** One change the diff found, as the ledger and the CHANGELOG keep it (places are left out: line numbers move). */
export interface RecordedChange {
  rule: string;
  class: ChangeClass;
  message: string;
  operation?: string;
}

export interface VersionChange {
  /** The spec path, as the config names it. */
  document: string;
  title: string;
  /** Absent: the document is new. */
  from?: string;
  /** Absent: the document was removed. */
  to?: string;
  /** What the diff against the previous release found (absent in releases made before the diff drove versions). */
  changes?: RecordedChange[];
}

export interface Release {
  version: string;
  changes: VersionChange[];
}

export interface Ledger {
  /** The package version. */
  version: string;
  /** Each document's `info.version` at that version. */
  documents: Record<string, { title: string; version: string }>;
  /** Newest first. */
  releases: Release[];
}

export interface SpecVersion {
  document: string;
  title: string;
  version: string;
  /**
   * The diff against the copy the previous release shipped: absent when the
   * document is byte-identical to it (or there is no previous release),
   * `unavailable` when that copy could not be compared (the version then
   * follows `info.version` alone).
   */
  diff?: { changes: RecordedChange[] } | { unavailable: string };
  /** Where `#/info/version` is, for diagnostics. */
  file: string;
  locate(pointer: string): { line: number; col: number };
}

export type Level = "major" | "minor" | "patch";
const LEVELS: Level[] = ["patch", "minor", "major"];

interface SemVer {
  major: number;
  minor: number;
  patch: number;
  pre: string[];
}

const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

function parse(version: string): SemVer | undefined {
  const m = SEMVER.exec(version.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ? m[4].split(".") : [] } : undefined;
}

/** Semver precedence: negative when a < b. */
function compare(a: SemVer, b: SemVer): number {
  const core = a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (core !== 0) return core;
  // a prerelease sorts before its release
  if (a.pre.length === 0 || b.pre.length === 0) return b.pre.length - a.pre.length;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i]!;
    const y = b.pre[i]!;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.pre.length - b.pre.length;
}

function format(v: SemVer): string {
  return `${v.major}.${v.minor}.${v.patch}${v.pre.length > 0 ? `-${v.pre.join(".")}` : ""}`;
}

/** The next version at `level`; below 1.0.0 the minor plays the major's role and the patch the minor's. */
function bump(version: string, level: Level): string {
  const v = parse(version) ?? { major: 0, minor: 1, patch: 0, pre: [] };
  const l = v.major === 0 ? (level === "major" ? "minor" : "patch") : level;
  // a prerelease of the next version is released by dropping its tag
  if (v.pre.length > 0 && (l === "patch" || (l === "minor" && v.patch === 0) || (v.minor === 0 && v.patch === 0))) return `${v.major}.${v.minor}.${v.patch}`;
  if (l === "major") return `${v.major + 1}.0.0`;
  if (l === "minor") return `${v.major}.${v.minor + 1}.0`;
  return `${v.major}.${v.minor}.${v.patch + 1}`;
}

const rank = (l: Level | undefined): number => (l === undefined ? -1 : LEVELS.indexOf(l));
const larger = (a: Level | undefined, b: Level | undefined): Level | undefined => (rank(a) >= rank(b) ? a : b);

/** The release a set of changes needs: major for breaking ones, minor for additions and deprecations, patch for documentation. */
export function levelOfChanges(changes: readonly { class: ChangeClass }[]): Level | undefined {
  if (changes.some((c) => c.class === "breaking-wire" || c.class === "breaking-code")) return "major";
  if (changes.some((c) => c.class === "addition" || c.class === "deprecation")) return "minor";
  return changes.length > 0 ? "patch" : undefined;
}

/** How much one document's version change weighs; undefined when it went backwards. */
function levelOf(from: string, to: string): Level | undefined {
  const a = parse(from);
  const b = parse(to);
  // free-form versions (dates, names) cannot be ordered: any change counts as a minor one
  if (!a || !b) return "minor";
  const order = compare(a, b);
  if (order > 0) return undefined;
  let level: Level = b.major > a.major ? "major" : b.minor > a.minor ? "minor" : "patch";
  // below 1.0.0 a minor bump says "breaking" and a patch bump "compatible"
  if (a.major === 0 && b.major === 0) level = level === "minor" ? "major" : "minor";
  return level;
}

function summaryOf(changes: readonly RecordedChange[]): string {
  const counts = summarize(changes);
  return CHANGE_CLASSES.filter((c) => counts[c] > 0)
    .map((c) => `${counts[c]} ${c}`)
    .join(", ");
}

/** The operation to put before a change's message: absent when the message already starts with it. */
export function operationLead(c: RecordedChange): string | undefined {
  return c.operation !== undefined && !c.message.startsWith(c.operation) ? c.operation : undefined;
}

/** Reads a ledger file's text; a broken one is an error, since versions could go backwards without it. */
export function parseLedger(text: string, file: string): { ledger?: Ledger; diagnostic?: Diagnostic } {
  const broken = (message: string): { diagnostic: Diagnostic } => ({
    diagnostic: { code: "versions/ledger", severity: "error", message, file, pointer: "#", line: 1, col: 1, hint: `restore ${LEDGER_FILE} from version control (it is generated, but it carries the version history)` },
  });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return broken(`not valid JSON: ${(e as Error).message}`);
  }
  const l = raw as Partial<Ledger>;
  const isEntry = (d: unknown) => typeof d === "object" && d !== null && typeof (d as { version?: unknown }).version === "string" && typeof (d as { title?: unknown }).title === "string";
  if (typeof l !== "object" || l === null || typeof l.version !== "string" || !parse(l.version)) return broken("\"version\" must be the package's semantic version");
  if (typeof l.documents !== "object" || l.documents === null || !Object.values(l.documents).every(isEntry)) return broken("\"documents\" must map each spec path to its title and version");
  if (!Array.isArray(l.releases) || !l.releases.every((r) => typeof r?.version === "string" && Array.isArray(r.changes))) return broken("\"releases\" must list the releases, newest first");
  return { ledger: l as Ledger };
}

export interface LedgerOptions {
  /** A document whose info.version moved less than its changes need is a warning, not an error (the package version still follows the changes). */
  lenient?: boolean;
}

/** The ledger of this generation: the previous one, plus a release when any document changed. */
export function nextLedger(previous: Ledger | undefined, specs: SpecVersion[], options: LedgerOptions = {}): { ledger: Ledger; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const documents: Ledger["documents"] = {};
  for (const s of specs) documents[s.document] = { title: s.title, version: s.version };
  if (!previous) {
    const versions = specs.map((s) => parse(s.version)).filter((v): v is SemVer => v !== undefined);
    const highest = versions.sort(compare).at(-1);
    const version = highest ? format(highest) : "0.1.0";
    return { ledger: { version, documents, releases: [{ version, changes: specs.map((s) => ({ document: s.document, title: s.title, to: s.version })) }] }, diagnostics };
  }
  const changes: VersionChange[] = [];
  let level: Level | undefined;
  const raise = (l: Level | undefined) => {
    level = larger(level, l);
  };
  const at = (s: SpecVersion, d: Omit<Diagnostic, "file" | "pointer" | "line" | "col">) => {
    const { line, col } = s.locate("#/info/version");
    diagnostics.push({ ...d, file: s.file, pointer: "#/info/version", line, col });
  };
  for (const s of specs) {
    const before = previous.documents[s.document];
    if (!before) {
      changes.push({ document: s.document, title: s.title, to: s.version });
      raise("minor");
      continue;
    }
    const diff = s.diff;
    const found = diff && "changes" in diff ? diff.changes : undefined;
    if (diff && "unavailable" in diff) {
      at(s, { code: "versions/baseline", severity: "warning", message: `cannot compare with the copy release ${previous.version} shipped (${diff.unavailable}); this document's changes count as a patch unless info.version says more`, hint: "regenerate from a clean output, or restore the previous spec/*.json copies from version control" });
    }
    // a document that changed but could not be compared changed at least its text
    const required = found ? levelOfChanges(found) : diff ? "patch" : undefined;
    let declared: Level | undefined;
    if (before.version !== s.version) {
      declared = levelOf(before.version, s.version);
      if (!declared) {
        at(s, { code: "versions/backwards", severity: "error", message: `info.version went from ${before.version} to ${s.version}; the package version follows it and cannot go back`, hint: `raise the version above ${before.version} instead` });
        continue;
      }
    }
    if (required === undefined && declared === undefined) continue;
    if (found && found.length > 0 && rank(declared) < rank(required)) {
      const first = found.find((c) => levelOfChanges([c]) === required)!;
      const moved = before.version === s.version ? `info.version stayed at ${s.version}` : `info.version only went from ${before.version} to ${s.version}`;
      at(s, {
        code: "versions/too-small",
        severity: options.lenient ? "warning" : "error",
        message: `the changes since release ${previous.version} (${summaryOf(found)}; ${operationLead(first) !== undefined ? `${operationLead(first)}: ` : ""}${first.message} [${first.rule}]) need info.version ${bump(before.version, required!)} or more, but ${moved}`,
        hint: `raise info.version to ${bump(before.version, required!)}${options.lenient ? "" : ", or generate with --lenient-versions to let the package version alone follow the changes"} (\`avaspec diff\` lists them)`,
      });
    }
    changes.push({ document: s.document, title: s.title, from: before.version, to: s.version, ...(found && found.length > 0 ? { changes: found } : {}) });
    raise(larger(required, declared));
  }
  for (const [document, before] of Object.entries(previous.documents)) {
    if (documents[document]) continue;
    changes.push({ document, title: before.title, from: before.version });
    raise("major");
  }
  if (!level) return { ledger: { ...previous, documents }, diagnostics };
  const version = bump(previous.version, level);
  return { ledger: { version, documents, releases: [{ version, changes }, ...previous.releases] }, diagnostics };
}
