// Results that are there now or later. The interpreter's hot paths (loops, builtins,
// assignments, arithmetic) return plain values and only become promises when something
// really waits (a program, a pipe, a substitution): an async function per AST node costs a
// promise and a microtask each, which dominated tight loops.

export type Maybe<T> = T | Promise<T>;

/** `f(v)` now if `v` is there, else when it settles. (Not named `then`: a module exporting
 * `then` is a thenable namespace, which breaks dynamic import.) */
export function chain<T, U>(v: Maybe<T>, f: (v: T) => Maybe<U>): Maybe<U> {
  return v instanceof Promise ? v.then(f) : f(v);
}

/** try/catch over a maybe-synchronous `run`. */
export function rescue<T>(run: () => Maybe<T>, onError: (e: unknown) => Maybe<T>): Maybe<T> {
  let r: Maybe<T>;
  try {
    r = run();
  } catch (e) {
    return onError(e);
  }
  return r instanceof Promise ? r.catch(onError) : r;
}

/** try/finally over a maybe-synchronous `run`. */
export function lastly<T>(run: () => Maybe<T>, fin: () => void): Maybe<T> {
  let r: Maybe<T>;
  try {
    r = run();
  } catch (e) {
    fin();
    throw e;
  }
  if (r instanceof Promise) return r.finally(fin);
  fin();
  return r;
}

/**
 * Runs `step` until it answers false: synchronously while its answers are there, then in one
 * async loop (not a chain of promises, so a long loop of waiting iterations stays flat).
 */
export function repeat(step: () => Maybe<boolean>): Maybe<void> {
  for (;;) {
    const more = step();
    if (more === false) return;
    if (more !== true) return repeatAsync(more, step);
  }
}

async function repeatAsync(first: Promise<boolean>, step: () => Maybe<boolean>): Promise<void> {
  let more = await first;
  while (more) {
    const r = step();
    more = typeof r === "boolean" ? r : await r;
  }
}

/** A promise of whatever `run` gives or throws (for callers that chain on the result). */
export function settled<T>(run: () => Maybe<T>): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (e) {
    return Promise.reject(e);
  }
}
