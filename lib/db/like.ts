/** A LIKE pattern's wildcards taken literally (use with `escape '\\'`). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}
