'use client';

import { Search } from 'lucide-react';
import { type ComponentType, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Button } from '@/components/ui/button';
import type { CommandPaletteDialogProps, CommandPaletteProps } from './command-palette';
import { takeEarlyPaletteKeys } from './palette-early-keys';

type PaletteDialog = ComponentType<CommandPaletteDialogProps>;

/** The palette (cmdk, a dialog, the directory client) is fetched on first use, not with every page. */
const loadPaletteDialog = () => import('./command-palette').then((module) => module.CommandPaletteDialog);

/**
 * The header's "Search or jump to…" button, and Ctrl-K or Cmd-K anywhere: both open the command
 * palette. Keys typed before its search field has the focus are kept and become its search.
 */
export function CommandPaletteLauncher(props: CommandPaletteProps) {
  const [open, setOpen] = useState(false);
  const [PaletteDialog, setPaletteDialog] = useState<PaletteDialog | null>(null);
  // The palette's search lives here, so that keys typed before its field has the focus (while it
  // loads, or while the dialog opens) are kept, in order, instead of reaching nothing.
  const [search, setSearch] = useState('');
  // Read by the key listener, which must know at once (before React renders) that the palette opened.
  const openNow = useRef(false);
  const show = (next: boolean) => {
    openNow.current = next;
    setOpen(next);
  };

  const openPalette = () => {
    setSearch('');
    show(true);
    if (!PaletteDialog) void loadPaletteDialog().then((dialog) => setPaletteDialog(() => dialog));
  };

  // Ctrl-K and the keys after it, pressed before the page hydrated (palette-early-keys.tsx): taken
  // over here, first, so that no key falls between the inline listener and these.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on hydrating.
  useEffect(() => {
    const early = takeEarlyPaletteKeys();
    if (!early?.open) return;
    openPalette();
    setSearch(early.search);
  }, []);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 'k' || !(event.ctrlKey || event.metaKey) || event.altKey) return;
      if (event.repeat || event.isComposing) return;
      // Another dialog (a confirmation) keeps the keyboard; the palette's own toggles it closed.
      const dialog = document.querySelector('[role="dialog"]');
      if (dialog && !dialog.hasAttribute('data-command-palette')) return;
      event.preventDefault();
      if (open) show(false);
      else openPalette();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  });

  // Open, but its field does not have the focus yet: what is typed goes to the search it shows.
  // Listening all along (not from an effect run after the palette renders): the keys right after
  // Ctrl-K arrive before any effect would.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!openNow.current) return;
      const field = document.querySelector('[data-command-palette] input');
      if (field && document.activeElement === field) return;
      if (event.key === 'Escape' && !field) {
        openNow.current = false;
        return setOpen(false);
      }
      if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      // Rendered at once (flushSync): a key the field takes natively next must find this one there,
      // or the field's own value, one key short, would overwrite it.
      if (event.key === 'Backspace') {
        event.preventDefault();
        return flushSync(() => setSearch((typed) => typed.slice(0, -1)));
      }
      if (event.key.length !== 1) return;
      event.preventDefault();
      flushSync(() => setSearch((typed) => typed + event.key));
    };
    // Capture: ahead of the dialog's own handlers, which would take the keys for its list.
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, []);

  return (
    <>
      <Button variant="outline" size="sm" aria-keyshortcuts="Control+K Meta+K" onClick={openPalette}>
        <Search aria-hidden="true" />
        {/* On a phone the band is one line: the icon, its name for screen readers. */}
        <span className="sr-only sm:not-sr-only">Search or jump to…</span>
        {/* No keyboard hint where there is no keyboard (a touch screen). */}
        <kbd className="hidden rounded border border-border bg-muted px-1 font-sans text-[0.7rem] sm:inline pointer-coarse:hidden">
          Ctrl K
        </kbd>
      </Button>
      {open && PaletteDialog ? (
        <PaletteDialog {...props} search={search} onSearchChange={setSearch} onClose={() => show(false)} />
      ) : null}
    </>
  );
}
