/**
 * How deep JSON text nests, found by scanning rather than parsing: parsers and JSON.stringify
 * recurse once per level, and some thousands of levels overflow the stack. Framework-free: the
 * forms (lib/json-text.ts), the console's request bodies (lib/server/request-body.ts) and the
 * service's (lib/user-group-service/request-body.ts) use it.
 */

/** Offset of the first `{` or `[` that opens level maxDepth + 1 (strings skipped), or -1. */
export function depthExceededAt(text: string, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return index;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return -1;
}
