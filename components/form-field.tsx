import type { ReactNode } from 'react';
import { cn } from './ui/cn';
import { Label } from './ui/label';

/** The ids a control points at with aria-describedby: its hint, then its error. */
export function describedBy(
  id: string,
  { hint, error }: { hint?: boolean; error?: boolean },
): string | undefined {
  const ids = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

type FormFieldProps = {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  /** Controls next to the label, such as a Format button. */
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
};

/**
 * A label above its control, a hint under it and the field's error under that. The control itself is
 * passed as children and must carry `id`, `aria-invalid` and `aria-describedby={describedBy(id, …)}`.
 */
export function FormField({ id, label, hint, error, actions, className, children }: FormFieldProps) {
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <div className="flex min-h-5 flex-wrap items-end justify-between gap-2">
        <Label id={`${id}-label`} htmlFor={id}>
          {label}
        </Label>
        {actions}
      </div>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs font-medium break-words text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
