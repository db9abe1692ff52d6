'use client';

/** Radix's dialog, styled. Pages use it through ./dialog.tsx, which loads this when a dialog first opens. */
import { Dialog as DialogPrimitive } from 'radix-ui';
import { type ComponentProps, useRef } from 'react';
import { cn } from './cn';

export const Dialog = DialogPrimitive.Root;
/** @public dialog.tsx reads it from the loaded module (`parts().DialogClose`), which knip does not follow. */
export const DialogClose = DialogPrimitive.Close;

/**
 * Modal content in a portal, over a dimmed page. Needs a DialogTitle and a DialogDescription.
 * Closed, it gives the focus back to what had it when it opened (the button that asked): Radix
 * returns it only to a DialogTrigger, and the console's dialogs are opened by state, so the focus
 * fell to the page's top. A dialog that knows better says so in its own onCloseAutoFocus.
 */
export function DialogContent({
  className,
  children,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content>) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/40 backdrop-blur-[1px]" />
      <DialogPrimitive.Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border border-border bg-card p-5 text-card-foreground shadow-lg outline-none sm:p-6',
          className,
        )}
        {...props}
        onOpenAutoFocus={(event) => {
          // Called before Radix moves the focus in: what has it now is what opened the dialog.
          opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          onOpenAutoFocus?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          const back = opener.current;
          if (event.defaultPrevented || !back?.isConnected || back === document.body) return;
          event.preventDefault();
          back.focus();
        }}
      >
        {children}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-base font-semibold', className)} {...props} />;
}

export function DialogDescription({
  className,
  ...props
}: ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />
  );
}
