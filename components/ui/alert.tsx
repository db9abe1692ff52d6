import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from './cn';

const alertVariants = cva('rounded-lg border px-4 py-3 text-sm', {
  variants: {
    variant: {
      error: 'border-destructive/40 bg-destructive/5 text-destructive',
      success: 'border-success/40 bg-success/5 text-success',
      notice: 'border-warning/40 bg-warning/10 text-warning-foreground',
      neutral: 'border-border bg-muted text-foreground',
    },
  },
  defaultVariants: { variant: 'neutral' },
});

export type AlertProps = ComponentProps<'div'> & VariantProps<typeof alertVariants>;

/** A boxed message. Give it role="alert" for errors and role="status" for outcomes. */
export function Alert({ className, variant, ...props }: AlertProps) {
  return <div className={cn(alertVariants({ variant }), className)} {...props} />;
}
