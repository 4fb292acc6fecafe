/**
 * The package version follows the spec documents' `info.version`. The
 * previous output's `versions.json` (a ledger, like a lockfile: the one piece
 * of state carried from one generation to the next) records each document's
 * version and the releases so far. A new generation compares:
 *
 * - a document whose major version went up, or that was removed → major bump;
 * - minor up, or a document added → minor bump;
 * - patch or prerelease change → patch bump;
 * - a version that went down → an error at its `#/info/version`.
 *
 * Without a ledger the package starts at the highest document version.
 * Nothing here reads the clock, so output stays byte-identical.
 */
import type { Diagnostic } from "./load/diagnostics.js";

export const LEDGER_FILE = "versions.json";

export interface VersionChange {
  /** The spec path, as the config names it. */
  document: string;
  title: string;
  /** Absent: the document is new. */
  from?: string;
  /** Absent: the document was removed. */
  to?: string;
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
  /** Where `#/info/version` is, for diagnostics. */
  file: string;
  locate(pointer: string): { line: number; col: number };
}

type Level = "major" | "minor" | "patch";
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

function bump(version: string, level: Level): string {
  const v = parse(version) ?? { major: 0, minor: 1, patch: 0, pre: [] };
  if (level === "major") return `${v.major + 1}.0.0`;
  if (level === "minor") return `${v.major}.${v.minor + 1}.0`;
  return `${v.major}.${v.minor}.${v.patch + 1}`;
}

/** How much one document's version change weighs; undefined when it went backwards. */
function levelOf(from: string, to: string): Level | undefined {
  const a = parse(from);
  const b = parse(to);
  // free-form versions (dates, names) cannot be ordered: any change counts as a minor one
  if (!a || !b) return "minor";
  const order = compare(a, b);
  if (order > 0) return undefined;
  if (b.major > a.major) return "major";
  if (b.minor > a.minor) return "minor";
  return "patch";
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

/** The ledger of this generation: the previous one, plus a release when any document's version changed. */
export function nextLedger(previous: Ledger | undefined, specs: SpecVersion[]): { ledger: Ledger; diagnostics: Diagnostic[] } {
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
  const raise = (l: Level) => {
    if (!level || LEVELS.indexOf(l) > LEVELS.indexOf(level)) level = l;
  };
  for (const s of specs) {
    const before = previous.documents[s.document];
    if (!before) {
      changes.push({ document: s.document, title: s.title, to: s.version });
      raise("minor");
      continue;
    }
    if (before.version === s.version) continue;
    const l = levelOf(before.version, s.version);
    if (!l) {
      const { line, col } = s.locate("#/info/version");
      diagnostics.push({
        code: "versions/backwards",
        severity: "error",
        message: `info.version went from ${before.version} to ${s.version}; the package version follows it and cannot go back`,
        file: s.file,
        pointer: "#/info/version",
        line,
        col,
        hint: `raise the version above ${before.version} instead`,
      });
      continue;
    }
    changes.push({ document: s.document, title: s.title, from: before.version, to: s.version });
    raise(l);
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
