'use client';

import type { Dialog as DialogPrimitive } from 'radix-ui';
import { type ComponentProps, useEffect, useState } from 'react';
import { cn } from './cn';

type DialogParts = typeof import('./dialog-parts');

let loadedParts: DialogParts | undefined;
const loadDialogParts = () =>
  import('./dialog-parts').then((parts) => {
    loadedParts = parts;
    return parts;
  });

/** The parts inside an open Dialog: it renders its children only once they have loaded. */
function parts(): DialogParts {
  if (!loadedParts) throw new Error('Dialog parts render only inside a Dialog that has opened');
  return loadedParts;
}

/**
 * A controlled dialog whose code (Radix: focus trap, dismissable layer, portal) is fetched when it
 * first opens: most visits open none, and it weighed 13 kB gzip on every page that has one.
 */
export function Dialog(props: ComponentProps<typeof DialogPrimitive.Root>) {
  const [dialogParts, setDialogParts] = useState(loadedParts);
  useEffect(() => {
    if (props.open && !dialogParts) void loadDialogParts().then(setDialogParts);
  }, [props.open, dialogParts]);
  if (!dialogParts) return null;
  return <dialogParts.Dialog {...props} />;
}

export function DialogClose(props: ComponentProps<typeof DialogPrimitive.Close>) {
  const { DialogClose: Close } = parts();
  return <Close {...props} />;
}

/** Modal content in a portal, over a dimmed page. Needs a DialogTitle and a DialogDescription. */
export function DialogContent(props: ComponentProps<typeof DialogPrimitive.Content>) {
  const { DialogContent: Content } = parts();
  return <Content {...props} />;
}

export function DialogTitle(props: ComponentProps<typeof DialogPrimitive.Title>) {
  const { DialogTitle: Title } = parts();
  return <Title {...props} />;
}

export function DialogDescription(props: ComponentProps<typeof DialogPrimitive.Description>) {
  const { DialogDescription: Description } = parts();
  return <Description {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-wrap justify-end gap-2 pt-1', className)} {...props} />;
}
