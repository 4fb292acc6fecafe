/**
 * Run under valgrind by bench/validators-instructions.ts (bundled first):
 * `node target.mjs <payload id> <avaspec|ajv> <warm-up> <iterations> [no-regex]`.
 * Validates the payload `warm-up` times, then `iterations` times.
 * With `no-regex`, RegExp.prototype.test answers true without running the
 * regex engine (installed after both validators are compiled), so what is
 * left is the validator's own code.
 */
import { payloads } from "./payloads.js";

const [id, who, warm, n, mode] = process.argv.slice(2);
const payload = payloads.find((p) => p.id === id);
if (!payload || (who !== "avaspec" && who !== "ajv")) throw new Error(`usage: <${payloads.map((p) => p.id).join("|")}> <avaspec|ajv> <warm-up> <iterations> [no-regex]`);
const validate = who === "avaspec" ? payload.guard : payload.ajv;
if (mode === "no-regex") RegExp.prototype.test = () => true;
if (!validate(payload.value)) throw new Error(`${who} rejects the ${id} payload`);
for (let i = 0, end = Number(warm); i < end; i++) validate(payload.value);
for (let i = 0, end = Number(n); i < end; i++) validate(payload.value);
