/**
 * The one module that turns spec strings into TypeScript names. Emitters never
 * invent names from spec text: they read the names this resolver put in the IR.
 */

/** TypeScript/JavaScript reserved words and names that cannot be bindings. */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "implements interface let package private protected public static yield await async as any boolean constructor declare get module require number set string symbol type from of never unknown object bigint undefined arguments eval infer is keyof readonly unique global satisfies"
  ).split(" "),
);

/**
 * Splits any string into words: separators, camelCase humps and digit runs.
 * Keeps Unicode letters. An acronym followed by a lone lower-case `s` keeps
 * it as its plural (`getUTXOs` → `get UTXOs`, `nodeIDs` → `node IDs`, `VMsList`
 * → `VMs List`) instead of starting a word `Os`/`Ds`/`Ms` with its last letter.
 */
export function words(input: string): string[] {
  return input
    .normalize("NFC")
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, (all: string, a: string, b: string, at: number, text: string) => (isAcronymPlural(text, at + 1) ? all : `${a} ${b}`))
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "");
}

/** Whether the upper-case letter at `at` ends an acronym (two or more capitals) whose plural `s` follows and ends the word. */
function isAcronymPlural(text: string, at: number): boolean {
  if (text.charAt(at + 1) !== "s" || /\p{Ll}/u.test(text.charAt(at + 2))) return false;
  return at >= 1 && /\p{Lu}/u.test(text.charAt(at - 1));
}

/** An all-caps word (an acronym like HTTP or ERC20) is treated as a word: `Http`, `Erc20`; so is its plural: `UTXOs` → `Utxos`, `IDs` → `Ids`. */
const capitalize = (w: string): string => {
  if (w.length > 1 && w === w.toUpperCase()) return w.charAt(0) + w.slice(1).toLowerCase();
  const stem = w.slice(0, -1);
  if (w.endsWith("s") && /\p{Lu}.*\p{Lu}/u.test(stem) && stem === stem.toUpperCase()) return stem.charAt(0) + stem.slice(1).toLowerCase() + "s";
  return w.charAt(0).toUpperCase() + w.slice(1);
};

export function pascalCase(input: string): string {
  return words(input).map(capitalize).join("");
}

export function camelCase(input: string): string {
  const p = pascalCase(input);
  return p.charAt(0).toLowerCase() + p.slice(1);
}

/** True for an identifier TypeScript accepts as a binding name. */
export function isIdentifier(name: string): boolean {
  return /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name) && !RESERVED.has(name);
}

/** True for a name usable as a property or method name without quotes (reserved words are fine there). */
export function isIdentifierName(name: string): boolean {
  return /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name);
}

/** Makes any string a valid binding name, keeping it recognisable. */
export function toIdentifier(input: string, style: "camel" | "pascal"): string {
  let name = style === "camel" ? camelCase(input) : pascalCase(input);
  if (name === "") name = style === "camel" ? "unnamed" : "Unnamed";
  if (!/^[\p{ID_Start}$_]/u.test(name)) name = `_${name}`;
  if (RESERVED.has(name)) name = `${name}_`;
  return name;
}

/**
 * Hands out unique names within one module namespace. A name that is taken
 * gets a numeric suffix; `reserve` marks names the emitters use themselves.
 */
export class NameRegistry {
  private readonly taken = new Set<string>();

  reserve(...names: string[]): void {
    for (const n of names) this.taken.add(n);
  }

  /** Claims `base` or, if taken, `base2`, `base3`…; returns the name claimed. */
  claim(base: string): string {
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    return name;
  }

  has(name: string): boolean {
    return this.taken.has(name);
  }
}

/** Operation name when the spec gives no operationId: method + path words (`get /pets/{id}` → `getPetsById`). */
export function deriveOperationName(method: string, path: string): string {
  const parts = path.split("/").filter(Boolean).map((seg) => (seg.startsWith("{") && seg.endsWith("}") ? `by ${seg.slice(1, -1)}` : seg));
  return toIdentifier(`${method} ${parts.join(" ")}`, "camel");
}
