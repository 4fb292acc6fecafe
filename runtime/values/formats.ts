/**
 * Assertions for common `format` values, used by generated validators only
 * when format assertion is switched on (2020-12 treats format as an
 * annotation by default). Each is a separate export so bundles keep only
 * the formats a schema uses.
 */

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

/** RFC 3339 full-date. */
export function date(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  return mo >= 1 && mo <= 12 && d >= 1 && d <= (mo === 2 && leap(y) ? 29 : DAYS[mo]!);
}

/** RFC 3339 full-time (offset required); a leap second only at 23:59:60 UTC. */
export function time(s: string): boolean {
  const m = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(z|([+-])(\d{2}):(\d{2}))$/i.exec(s);
  if (!m) return false;
  const h = Number(m[1]);
  const min = Number(m[2]);
  const sec = Number(m[3]);
  const sign = m[6] === "-" ? -1 : 1;
  const oh = Number(m[7] ?? 0);
  const om = Number(m[8] ?? 0);
  if (h > 23 || min > 59 || sec > 60 || oh > 23 || om > 59) return false;
  if (sec < 60) return true;
  // 23:59:60 in UTC, whatever the offset
  let utc = h * 60 + min - sign * (oh * 60 + om);
  utc = ((utc % 1440) + 1440) % 1440;
  return utc === 23 * 60 + 59;
}

/** RFC 3339 date-time. */
export function dateTime(s: string): boolean {
  const i = s.search(/t/i);
  return i === 10 && date(s.slice(0, i)) && time(s.slice(i + 1));
}

/** RFC 1123 host name: labels of 1–63 letters, digits and inner hyphens, 253 characters at most. */
export function hostname(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  const name = s;
  // "--" in the third and fourth places is reserved for IDNA ("xn--")
  return name.split(".").every((l) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(l) && (l.slice(2, 4) !== "--" || /^xn--/i.test(l)));
}

/** Dotted-quad IPv4 without leading zeros. */
export function ipv4(s: string): boolean {
  return /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(s);
}

/** RFC 4291 IPv6 text form, an embedded IPv4 tail allowed, no zone id. */
export function ipv6(s: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(s)) return false;
  let text = s;
  const lastColon = s.lastIndexOf(":");
  if (s.includes(".")) {
    // an IPv4 tail stands for the last two groups
    if (!ipv4(s.slice(lastColon + 1))) return false;
    text = s.slice(0, lastColon + 1) + "0:0";
  }
  const halves = text.split("::");
  if (halves.length > 2) return false;
  const groups = (h: string) => (h === "" ? [] : h.split(":"));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  if (![...left, ...right].every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return false;
  const count = left.length + right.length;
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** A practical RFC 5321 mailbox: dot-atom or quoted local part; host name or address literal domain. */
export function email(s: string): boolean {
  const at = s.lastIndexOf("@");
  if (at <= 0) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  const localOk = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i.test(local) || /^"(?:[^"\\\r\n]|\\.)*"$/.test(local);
  if (!localOk) return false;
  if (domain.startsWith("[") && domain.endsWith("]")) {
    const lit = domain.slice(1, -1);
    return ipv4(lit) || (/^ipv6:/i.test(lit) && ipv6(lit.slice(5)));
  }
  return hostname(domain);
}

/** RFC 4122 UUID. */
export function uuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}

/** RFC 3986 absolute URI (scheme required, valid characters and percent-escapes). */
export function uri(s: string): boolean {
  const m = /^([a-z][a-z0-9+.-]*):(.*)$/is.exec(s);
  if (!m) return false;
  const rest = m[2]!;
  if (/[^a-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/i.test(rest) || /%(?![0-9a-f]{2})/i.test(rest)) return false;
  let path = rest;
  if (rest.startsWith("//")) {
    const authority = rest.slice(2).split(/[/?#]/)[0]!;
    path = rest.slice(2 + authority.length);
    const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
    const host = hostPort.replace(/:\d*$/, "");
    if (host.startsWith("[")) {
      if (!(/^\[[0-9a-f:.]+\]$/i.test(host) && ipv6(host.slice(1, -1)))) return false;
    } else if (/[[\]:]/.test(host)) return false;
  }
  // brackets belong to an IP-literal authority only
  if (/[[\]]/.test(path)) return false;
  const fragment = rest.indexOf("#");
  return fragment < 0 || !rest.slice(fragment + 1).includes("#");
}
