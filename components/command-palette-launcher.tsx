'use client';

import { Search } from 'lucide-react';
import { type ComponentType, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { CommandPaletteDialogProps, CommandPaletteProps } from './command-palette';

type PaletteDialog = ComponentType<CommandPaletteDialogProps>;

/** The palette (cmdk, a dialog, the directory client) is fetched on first use, not with every page. */
const loadPaletteDialog = () => import('./command-palette').then((module) => module.CommandPaletteDialog);

/**
 * The header's "Search or jump to…" button, and Ctrl-K or Cmd-K anywhere: both open the command
 * palette. Keys typed while it loads are kept and become its search.
 */
export function CommandPaletteLauncher(props: CommandPaletteProps) {
  const [open, setOpen] = useState(false);
  const [PaletteDialog, setPaletteDialog] = useState<PaletteDialog | null>(null);
  const [typedAhead, setTypedAhead] = useState('');

  const openPalette = () => {
    setTypedAhead('');
    setOpen(true);
    if (!PaletteDialog) void loadPaletteDialog().then((dialog) => setPaletteDialog(() => dialog));
  };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 'k' || !(event.ctrlKey || event.metaKey) || event.altKey) return;
      if (event.repeat || event.isComposing) return;
      // Another dialog (a confirmation) keeps the keyboard; the palette's own toggles it closed.
      const dialog = document.querySelector('[role="dialog"]');
      if (dialog && !dialog.hasAttribute('data-command-palette')) return;
      event.preventDefault();
      if (open) setOpen(false);
      else openPalette();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  });

  // Opened but not loaded yet: what is typed goes to the search it will show.
  const loading = open && !PaletteDialog;
  useEffect(() => {
    if (!loading) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') return setOpen(false);
      if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
      event.preventDefault();
      setTypedAhead((typed) => typed + event.key);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [loading]);

  return (
    <>
      <Button variant="outline" size="sm" aria-keyshortcuts="Control+K Meta+K" onClick={openPalette}>
        <Search aria-hidden="true" />
        Search or jump to…
        <kbd className="rounded border border-border bg-muted px-1 font-sans text-[0.7rem]">Ctrl K</kbd>
      </Button>
      {open && PaletteDialog ? (
        <PaletteDialog {...props} initialSearch={typedAhead} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}
