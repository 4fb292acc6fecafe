/**
 * Whole-process figures from GNU `time` (`/usr/bin/time -f "%e %M %U %S"`),
 * shared by the benches that time commands: one run is a Sample, several
 * are summarized by their median.
 */
import { readFileSync } from "node:fs";

export const TIME = "/usr/bin/time";
/** Wall seconds, peak RSS in KB, user and system CPU seconds. */
export const TIME_FORMAT = "%e %M %U %S";

export interface Sample {
  wall: number;
  rssKb: number;
  cpu: number;
}

/** The last line GNU time wrote to its `-o` file. */
export function readTimeFile(file: string): Sample {
  const [wall, rssKb, user, sys] = readFileSync(file, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number) as [number, number, number, number];
  return { wall, rssKb, cpu: user + sys };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median and range of the wall times, median CPU, highest peak RSS. */
export function figures(samples: readonly Sample[]): { wall: number; minWall: number; maxWall: number; cpu: number; peakRssMb: number } {
  const walls = samples.map((s) => s.wall);
  return { wall: median(walls), minWall: Math.min(...walls), maxWall: Math.max(...walls), cpu: median(samples.map((s) => s.cpu)), peakRssMb: Math.max(...samples.map((s) => s.rssKb)) / 1024 };
}
