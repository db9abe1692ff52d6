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

/**
 * What the confirmation field says as the person types: nothing before they start, "Matches …"
 * once it does, and otherwise whether they are on their way ("… yet") or have gone wrong, and how
 * (case, spaces, the first character that differs). `typo`: worth reading out once typing stops.
 */
export type TypedFeedback = { text: string; state: 'matches' | 'on-the-way' | 'typo' };

export function typedFeedback(confirm: TypeToConfirm, typed: string): TypedFeedback | null {
  const { kind, value } = confirm;
  if (typed === '' || value === '') return null;
  if (confirmsTyped(confirm, typed)) return { text: `Matches ${value}`, state: 'matches' };
  const compared = kind === 'id' ? typed : typed.trimStart();
  if (value.startsWith(compared)) return { text: `Does not match ${value} yet`, state: 'on-the-way' };
  if (kind === 'id' && typed.trim() === value)
    return { text: `Does not match ${value}: remove the spaces around it`, state: 'typo' };
  if (
    compared.toLowerCase() === value.toLowerCase() ||
    value.toLowerCase().startsWith(compared.toLowerCase())
  )
    return { text: `Does not match ${value}: capitals and small letters differ`, state: 'typo' };
  let at = 0;
  while (at < compared.length && compared[at] === value[at]) at += 1;
  return {
    text:
      at >= value.length
        ? `Does not match ${value}: it is longer`
        : `Does not match ${value}: character ${at + 1} differs`,
    state: 'typo',
  };
}
