import type { ComponentProps } from 'react';
import { cn } from './cn';

export function Label({ className, htmlFor, ...props }: ComponentProps<'label'>) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: a primitive; every caller passes htmlFor and the text
    <label
      htmlFor={htmlFor}
      className={cn('block text-sm leading-none font-medium text-foreground', className)}
      {...props}
    />
  );
}
