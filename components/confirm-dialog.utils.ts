/**
 * What a confirmation asks to be typed (a group's id, a number of rows, or the environment's name)
 * and, when not `Type <value> to confirm`, the field's label.
 */
export type TypeToConfirm = { kind: 'id' | 'count' | 'environment'; value: string; label?: string };

/**
 * Whether what was typed confirms: an id exactly (no trimming, no case folding: `Acme` is not
 * `acme`); a count or an environment's name with spaces around it allowed (the server reads a count
 * so too).
 */
export function confirmsTyped({ kind, value }: TypeToConfirm, typed: string): boolean {
  if (value === '') return false;
  return kind === 'id' ? typed === value : typed.trim() === value;
}
