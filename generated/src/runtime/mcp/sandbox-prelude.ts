/**
 * The JavaScript that runs inside QuickJS before the snippet: the client
 * objects, `console`, and the four functions the engine drives the run with.
 * It is a function expression evaluated once per run; the engine calls it
 * with two host functions, `post` (send a client call) and `emit` (one log
 * line), which stay in its closure: the snippet never sees them, only the
 * method wrappers built from the surface.
 *
 * Values cross the boundary as JSON text only. Going out (a call's
 * arguments), a bigint becomes its decimal string. Coming in (a call's reply),
 * the host tags strings that start with U+0000 so that a bigint can travel as
 * a tagged string and be revived as a bigint: "\u0000n123" is 123n and
 * "\u0000s…" is a string that began with U+0000 (sandbox-wire.ts writes them).
 *
 * The snippet can rewrite any built-in before calling a client; the prelude
 * keeps its own references to JSON, Map, Promise and Error so that the
 * wrappers work as long as the snippet leaves those alone, and whatever the
 * snippet breaks, it breaks only inside its own run.
 */

/** The most JSON text one call's arguments may be (it is copied out of the sandbox and parsed on the host). */
export const MAX_ARGS_CHARS = 1_048_576;
/** A log line is cut to this many characters. */
export const MAX_LOG_LINE = 1_000;

export const PRELUDE = `(function (post, emit) {
  "use strict";
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const MapCtor = Map;
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
  const BigIntCtor = BigInt;
  const StringCtor = String;
  const isArray = Array.isArray;
  const keys = Object.keys;
  const freeze = Object.freeze;
  const defineProperty = Object.defineProperty;
  const HOST = Symbol("client error");
  const REFUSED = Symbol("refused");
  const TOO_BIG = {};
  const waiting = new MapCtor();
  let nextId = 1;

  function toWire(key, value) {
    return typeof value === "bigint" ? StringCtor(value) : value;
  }
  function fromWire(key, value) {
    if (typeof value === "string" && value.charCodeAt(0) === 0) return value.charAt(1) === "n" ? BigIntCtor(value.slice(2)) : value.slice(2);
    return value;
  }
  function show(value) {
    if (typeof value === "string") return value;
    if (typeof value === "bigint") return StringCtor(value) + "n";
    try {
      if (value instanceof ErrorCtor) return StringCtor(value.name) + ": " + StringCtor(value.message);
      const text = stringify(value, toWire);
      return text === undefined ? StringCtor(value) : text;
    } catch (e) {
      try { return StringCtor(value); } catch (e2) { return "[unprintable]"; }
    }
  }
  function logger(prefix) {
    return function log(...values) {
      let line = prefix;
      for (let i = 0; i < values.length; i++) line += (i > 0 ? " " : "") + show(values[i]);
      emit(line.length > ${MAX_LOG_LINE} ? line.slice(0, ${MAX_LOG_LINE}) + "…" : line);
    };
  }
  function refusal(message) {
    const error = new ErrorCtor(message);
    error[REFUSED] = true;
    return error;
  }
  function call(pathText, args) {
    let text;
    try {
      text = stringify(args, toWire);
    } catch (e) {
      return PromiseCtor.reject(e);
    }
    if (text.length > ${MAX_ARGS_CHARS}) return PromiseCtor.reject(refusal("the arguments are " + text.length + " characters of JSON, over the ${MAX_ARGS_CHARS} one call may send"));
    return new PromiseCtor(function (resolve, reject) {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      const refused = post(id, pathText, text);
      if (refused !== "") {
        waiting.delete(id);
        reject(refusal(refused));
      }
    });
  }
  function clientError(e) {
    const error = new ErrorCtor(StringCtor(e.message));
    if (typeof e.name === "string") defineProperty(error, "name", { value: e.name, writable: true, configurable: true });
    for (const field of ["status", "statusCode", "code"]) if (e[field] !== undefined) error[field] = e[field];
    error[HOST] = true;
    if (e.refused === true) error[REFUSED] = true;
    return error;
  }
  function method(path) {
    const pathText = stringify(path);
    const name = path[path.length - 1];
    // a named function: the snippet's stack traces and console output show the client method's name
    return { [name](...args) { return call(pathText, args); } }[name];
  }
  function build(tree, path) {
    const out = {};
    for (const name of keys(tree)) {
      const here = path.concat([name]);
      defineProperty(out, name, { value: tree[name] === "method" ? method(here) : build(tree[name], here), enumerable: true });
    }
    return freeze(out);
  }

  function install(surfaceText) {
    const surface = parse(surfaceText);
    for (const name of keys(surface)) {
      if (name in globalThis) throw new ErrorCtor("the client name " + stringify(name) + " is already a global of the sandbox");
      defineProperty(globalThis, name, { value: surface[name] === "method" ? method([name]) : build(surface[name], [name]) });
    }
    const console = freeze({ log: logger(""), info: logger(""), debug: logger(""), warn: logger("warn: "), error: logger("error: ") });
    defineProperty(globalThis, "console", { value: console, writable: true, configurable: true });
  }
  function deliver(id, text) {
    const waiter = waiting.get(id);
    if (waiter === undefined) return;
    waiting.delete(id);
    let reply;
    try {
      reply = parse(text, fromWire);
    } catch (e) {
      waiter.reject(e);
      return;
    }
    if (reply.e !== undefined) waiter.reject(clientError(reply.e));
    else waiter.resolve(reply.v);
  }
  // The result's JSON text, or a number when it is bigger than the limit: a lower bound of its size, counted
  // while serializing (strings by UTF-16 length, no commas) so that a huge result stops early.
  function finish(value, limit) {
    let size = 0;
    let root = true;
    try {
      const text = stringify(value, function (key, v) {
        if (typeof v === "bigint") v = StringCtor(v);
        let own = 0;
        if (typeof v === "string") own = v.length + 2;
        else if (typeof v === "number") own = v === v && v !== Infinity && v !== -Infinity ? StringCtor(v).length : 4;
        else if (typeof v === "boolean") own = v ? 4 : 5;
        else if (v === null) own = 4;
        else if (typeof v === "object") own = 2;
        else return v;
        if (!root && !isArray(this)) own += key.length + 3;
        root = false;
        size += own;
        if (size > limit) throw TOO_BIG;
        return v;
      });
      return text === undefined ? "null" : text;
    } catch (e) {
      if (e === TOO_BIG) return size;
      throw e;
    }
  }
  function describe(error) {
    let name = "Error";
    let message = "";
    try {
      if (error !== null && typeof error === "object") {
        name = error.name === undefined ? "Error" : StringCtor(error.name);
        message = error.message === undefined ? show(error) : StringCtor(error.message);
      } else {
        name = "";
        message = show(error);
      }
    } catch (e) {
      message = "an error that could not be read";
    }
    let line = 0;
    let column = 0;
    try {
      const at = /snippet\\.ts:(\\d+):(\\d+)/.exec(StringCtor(error.stack));
      if (at !== null) {
        line = +at[1];
        column = +at[2];
      }
    } catch (e) {}
    let host = false;
    let refused = false;
    try {
      // a Proxy's traps run here: the snippet's code, which may throw
      host = error !== null && typeof error === "object" && error[HOST] === true;
      refused = error !== null && typeof error === "object" && error[REFUSED] === true;
    } catch (e) {}
    return stringify({ name, message, host, refused, line, column });
  }
  return { install, deliver, finish, describe };
})`;
