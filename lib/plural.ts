/**
 * A count with its noun, in the person's words: "1 token", "2 tokens", "1,000 rows", "1 entry",
 * "3 entries". The one way the console writes a count; plain module, the browser uses it too.
 * Nouns whose plural is not the singular plus "s" (or "y" → "ies") name it.
 */
export function plural(count: number, singular: string, pluralForm = regularPlural(singular)): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : pluralForm}`;
}

function regularPlural(singular: string): string {
  if (/[^aeiou]y$/.test(singular)) return `${singular.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(singular)) return `${singular}es`;
  return `${singular}s`;
}
