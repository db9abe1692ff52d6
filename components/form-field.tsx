import type { ReactNode } from 'react';
import { cn } from './ui/cn';
import { Label } from './ui/label';

/** What a field's control carries: the id its label names, and the ARIA tying it to its texts. */
export type FormControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

/** The id of a field's label, for a control next to it (a Format button) that it describes. */
export function formFieldLabelId(id: string): string {
  return `${id}-label`;
}

type FormFieldProps = {
  id: string;
  label: string;
  /** Help under the control, read out with it. */
  description?: ReactNode;
  /** The field's problem, under the description; marks the control invalid. */
  error?: string;
  /** Controls next to the label, such as a Format button. */
  actions?: ReactNode;
  className?: string;
  /** Renders the control; spread `control` onto it (`<Input {...control} … />`). */
  children: (control: FormControlProps) => ReactNode;
};

/**
 * The one place a form field is wired: a label above its control, the description under it and the
 * error under that, with the control's id, `aria-invalid` and `aria-describedby` (description, then
 * error) set here so no form repeats them. Renders on the server too (the audit filters).
 */
export function FormField({ id, label, description, error, actions, className, children }: FormFieldProps) {
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(' ') || undefined;

  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <div className="flex min-h-5 flex-wrap items-end justify-between gap-2">
        <Label id={formFieldLabelId(id)} htmlFor={id}>
          {label}
        </Label>
        {actions}
      </div>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {description ? (
        <p id={descriptionId} className="text-xs text-muted-foreground">
          {description}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium break-words text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
