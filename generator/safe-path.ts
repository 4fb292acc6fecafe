/**
 * Where avaspec may write or remove: the one place that decides whether a
 * path lies inside the output folder. Every path comes from somewhere a user
 * (or anyone) can edit — the manifest, a killed run's journal, the folder
 * itself — so none is trusted: an entry must be relative, "/"-separated,
 * without `.` or `..`, and each folder on its way is looked at with `lstat`
 * from the output root down. A symbolic link met on the way is refused,
 * never followed, wherever it points: following it is how a removal of
 * `cache/important.txt` becomes a removal of `/elsewhere/important.txt`.
 *
 * The output root itself is resolved once (`realpath`), so an `--out` that is
 * a link to a folder works as users expect; links inside it do not.
 */
import { lstatSync, mkdirSync, readlinkSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** A refusal or an I/O failure: reported as `avaspec: <message> [code]`, exit code 1. */
export class WriteError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(code ? `${message} [${code}]` : message);
  }
}

/** A relative "/"-separated path that stays inside its folder. */
export function isSafeRelative(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !/^[A-Za-z]:/.test(path) && !path.includes("\\") && !path.includes("\0") && path.split("/").every((s) => s !== "" && s !== "." && s !== "..");
}

/** What is at a path, by `lstat`: a link is a link, whatever it points to. */
export type Kind = "missing" | "file" | "folder" | "link" | "other";

export function kindOf(path: string): Kind {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw e;
  }
  return st.isSymbolicLink() ? "link" : st.isDirectory() ? "folder" : st.isFile() ? "file" : "other";
}

export interface Place {
  /** What is at the path itself; "missing" also when something on the way is not a folder. */
  kind: Kind;
  /** The first folder on the way (relative to the root) that is not a real folder. */
  blocked?: { at: string; kind: Exclude<Kind, "missing" | "folder"> };
}

/** Looks at `rel` under `root` one component at a time, without following any link. */
export function place(root: string, rel: string): Place {
  if (!isSafeRelative(rel)) throw new Error(`internal: unchecked path ${JSON.stringify(rel)}`);
  const parts = rel.split("/");
  for (let i = 1; i < parts.length; i++) {
    const at = parts.slice(0, i).join("/");
    const kind = kindOf(join(root, at));
    if (kind === "missing") return { kind };
    if (kind !== "folder") return { kind: "missing", blocked: { at, kind } };
  }
  return { kind: kindOf(join(root, rel)) };
}

/** Where a link points, for messages. */
export function linkTarget(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return "?";
  }
}

/** How a refusal names a path: as the user spelled the output folder, not its resolved root. */
export type Show = (rel: string) => string;

/** The refusal for a path whose way is blocked, with what to do; `after` says what state the output is in. */
export function blockedError(root: string, rel: string, blocked: NonNullable<Place["blocked"]>, show: Show, after: string): WriteError {
  if (blocked.kind === "link") {
    return new WriteError(
      `${show(blocked.at)} is a symbolic link (to ${linkTarget(join(root, blocked.at))}) and ${rel} lies beyond it; avaspec never writes or removes through a link inside its output folder. Replace the link with a real folder, or move it away, and run again; ${after}`,
      "write/link",
    );
  }
  return new WriteError(`${show(blocked.at)} is a ${blocked.kind === "file" ? "file" : "special file"} where avaspec needs a folder (for ${rel}); move it away and run again; ${after}`, "write/not-a-folder");
}

/**
 * The absolute path of `rel` under `root`, to write or remove right now: the
 * way is checked again at the moment of use, so a link made since the run
 * began is refused too.
 */
export function inside(root: string, rel: string, show: Show, after: string): string {
  const p = place(root, rel);
  if (p.blocked) throw blockedError(root, rel, p.blocked, show, after);
  return join(root, rel);
}

/** `mkdir -p` of a folder inside the root, one component at a time, refusing links and files on the way. */
export function makeFoldersInside(root: string, rel: string, show: Show, after: string): void {
  if (rel === "." || rel === "") return;
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const at = parts.slice(0, i).join("/");
    const kind = kindOf(join(root, at));
    if (kind === "folder") continue;
    if (kind !== "missing") throw blockedError(root, rel, { at, kind }, show, after);
    mkdirSync(join(root, at));
  }
}

/**
 * The real path of a path that may not exist yet: the real path of its
 * deepest existing ancestor, with the rest appended. Used to compare the
 * output folder with the inputs when either is reached through a link.
 */
export function realPathOf(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realPathOf(parent), basename(abs));
  }
}
