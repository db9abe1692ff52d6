import type { ReactNode } from 'react';
import { FormField } from './form-field';
import { Input } from './ui/input';

type OneTimeCodeFieldProps = {
  id: string;
  label: string;
  description?: ReactNode;
  error?: string;
  value: string;
  onChange: (value: string) => void;
  /**
   * Digits only (an authenticator app's code): phones show the number pad. Off where a backup code
   * (letters and digits) is taken in the same field.
   */
  digitsOnly?: boolean;
  autoFocus?: boolean;
};

/**
 * The one field for a one-time code (enrolling an authenticator app, the sign-in's second step,
 * the step-up dialog): labelled, `autocomplete="one-time-code"` so browsers and phones offer the
 * code they received, the number pad for digits, no spell-checking, and its error under it.
 */
export function OneTimeCodeField({
  id,
  label,
  description,
  error,
  value,
  onChange,
  digitsOnly = true,
  autoFocus = false,
}: OneTimeCodeFieldProps) {
  return (
    <FormField id={id} label={label} description={description} error={error}>
      {(control) => (
        <Input
          {...control}
          inputMode={digitsOnly ? 'numeric' : undefined}
          autoComplete="one-time-code"
          spellCheck={false}
          autoFocus={autoFocus}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </FormField>
  );
}
