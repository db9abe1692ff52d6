/**
 * One value per process, whichever copy of a module asks. Next loads the server's modules once per
 * bundle layer (instrumentation, route handlers, pages: three copies in the one process), so a
 * module-level value is one per copy. What must be one per process (the console server with its
 * database and background work, the request context, the log, the metrics) is kept on globalThis
 * under a registered symbol, made by whichever copy asks first.
 */
export function processWide<T>(name: string, make: () => T): T {
  // Apart from the brands' symbols: a value and a brand of one name are two symbols.
  const key = Symbol.for(`user-group-console.process-wide.${name}`);
  const holder = globalThis as Record<symbol, unknown>;
  if (!(key in holder)) holder[key] = make();
  return holder[key] as T;
}

/**
 * `instanceof` for a class whose instances cross copies of its module (an error thrown by the
 * process's one console server, built by one copy, and caught by the code of another): an instance
 * carries the registered brand, and every copy's class recognises it.
 */
export function crossCopyBrand(name: string) {
  const brand = Symbol.for(`user-group-console.brand.${name}`);
  return {
    brand,
    /** For `static [Symbol.hasInstance]`: what carries the brand, from any copy. */
    carries: (value: unknown): boolean =>
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true,
  };
}
