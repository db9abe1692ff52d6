'use client';

import { Command } from 'cmdk';
import { Search } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog-parts';
import { maskedText } from '@/components/ui/masked-text';
import { DIRECTORY_SEARCH_MAX } from '@/lib/directory/contract';
import type { Environment } from '@/lib/environments';
import {
  commandOf,
  type EnvironmentState,
  firstChoiceOf,
  noSelectionOtherThan,
  type PaletteCommand,
  paletteSections,
  paletteStatus,
} from './command-palette-model';
import { usePaletteDirectorySearch } from './command-palette-search';
import { landOnMainAction } from './landing-focus';
import { navigateGuarded } from './navigation-guard';
import { handOverToken } from './token-handoff';

export interface CommandPaletteProps {
  environment: Environment;
  environments: EnvironmentState[];
  /** Whether the operator's role may identify, rotate or delete by a pasted token. */
  mayPasteToken: boolean;
  /** Whether the operator's role may create groups (the palette then offers the create form). */
  mayCreate: boolean;
}

export interface CommandPaletteDialogProps extends CommandPaletteProps {
  /** The search, kept by the launcher (which also takes what is typed before the field has focus). */
  search: string;
  onSearchChange: (search: string) => void;
  onClose: () => void;
}

/**
 * The open palette (cmdk in a dialog), mounted while open: each opening starts fresh. Loaded on
 * first use by command-palette-launcher.tsx, which owns the button and Ctrl-K / Cmd-K.
 */
export function CommandPaletteDialog({
  environment,
  environments,
  mayPasteToken,
  mayCreate,
  search,
  onSearchChange,
  onClose,
}: CommandPaletteDialogProps) {
  const router = useRouter();
  const typed = search.trim();
  const { token, groups, searching, noGroupFound, failure } = usePaletteDirectorySearch(environment, typed);
  const sections = paletteSections({ environment, environments, search, groups, mayPasteToken, mayCreate });
  // Enter pressed before the search answered: taken as soon as it does, never lost.
  const [enterPending, setEnterPending] = useState(false);
  // Whether the person moved the selection (arrows, pointer) since the search last changed.
  const navigated = useRef(false);
  const firstChoice = firstChoiceOf(sections, searching);
  const [selected, setSelected] = useState(firstChoice);
  const [shownFor, setShownFor] = useState(firstChoice);
  if (shownFor !== firstChoice) {
    setShownFor(firstChoice);
    setSelected(firstChoice);
  }

  // Escape gives the focus back to what had it (components/ui/dialog-parts.tsx); a jump leaves it
  // to the page it lands on (components/landing-focus.tsx).
  const jumping = useRef(false);

  const go = (command: PaletteCommand) => {
    jumping.current = true;
    if (command.handsOverToken) handOverToken(typed);
    onClose();
    navigateGuarded(() => {
      landOnMainAction();
      router.push(command.href);
    });
  };

  useEffect(() => {
    if (!enterPending || searching) return;
    setEnterPending(false);
    const command = commandOf(sections, firstChoice);
    if (command) go(command);
  });

  const status = paletteStatus({ environment, typed, token, mayPasteToken, searching, noGroupFound });

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (jumping.current) event.preventDefault();
        }}
        data-command-palette
        className="top-[12dvh] max-w-xl translate-y-0 gap-0 overflow-hidden p-0 sm:p-0"
      >
        <DialogTitle className="sr-only">Command palette</DialogTitle>
        <DialogDescription className="sr-only">
          Search the user groups of {environment}, or jump to a page. Arrows move, Enter opens.
        </DialogDescription>
        <Command
          // A grid item of the dialog: without min-w-0 a long id's line widened the whole palette.
          className="min-w-0"
          shouldFilter={false}
          loop
          label="Search user groups or jump to a page"
          value={selected}
          onValueChange={(value) => {
            // cmdk selects the first item by itself as the list changes: never the create form. Its
            // own choice sticks unless the value given to it changes: give it the other value of none.
            if (!navigated.current && commandOf(sections, value)?.neverPreselected)
              return setSelected(noSelectionOtherThan);
            setSelected(value);
          }}
          onKeyDown={(event) => {
            if (/^(Arrow(Up|Down)|Home|End|Page(Up|Down))$/.test(event.key)) navigated.current = true;
          }}
        >
          <div className="flex items-center gap-2 border-b border-border px-3 focus-within:bg-muted/40 focus-within:ring-2 focus-within:ring-inset focus-within:ring-ring">
            <Search aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
            <Command.Input
              value={search}
              onValueChange={(value) => {
                navigated.current = false;
                onSearchChange(value);
                setEnterPending(false);
              }}
              onKeyDown={(event) => {
                if (event.key !== 'Enter' || !searching) return;
                event.preventDefault();
                setEnterPending(true);
              }}
              // Text typed before the focus came is already there: carry on after it.
              onFocus={(event) => event.currentTarget.setSelectionRange(search.length, search.length)}
              maxLength={DIRECTORY_SEARCH_MAX}
              placeholder={`Search ${environment} by id or name, or type a command…`}
              className={`h-12 w-full min-w-0 bg-transparent text-sm text-foreground outline-none placeholder:text-muted-foreground ${token ? maskedText : ''}`}
              data-masked={token || undefined}
            />
          </div>
          <p aria-live="polite" className="px-4 pt-2 text-xs text-muted-foreground empty:hidden">
            {status}
          </p>
          {failure !== null ? (
            <p
              role="alert"
              className="mx-3 mt-2 rounded-md bg-destructive/5 px-2 py-1.5 text-sm text-destructive"
            >
              {failure}
            </p>
          ) : null}
          <Command.List label="Results" className="max-h-[min(24rem,60dvh)] overflow-y-auto p-1.5">
            {sections.map((section) => (
              <Command.Group
                key={section.heading}
                heading={section.heading}
                className="py-1 [&_[cmdk-group-heading]]:px-2.5 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-muted-foreground"
              >
                {section.commands.map((command) => (
                  <Command.Item
                    key={command.value}
                    value={command.value}
                    onSelect={() => go(command)}
                    onPointerMove={() => {
                      navigated.current = true;
                    }}
                    className="flex min-w-0 cursor-pointer items-start gap-2.5 rounded-md px-2.5 py-2 text-sm text-foreground outline-none data-[disabled=true]:cursor-not-allowed data-[disabled=true]:text-muted-foreground data-[selected=true]:bg-muted data-[selected=true]:ring-2 data-[selected=true]:ring-ring data-[selected=true]:ring-inset"
                  >
                    <command.icon
                      aria-hidden="true"
                      className="mt-0.5 size-4 shrink-0 text-muted-foreground"
                    />
                    {/* Inside the box whatever its length (#43): a long id wraps, its group's name under it on a phone. */}
                    <span className="flex min-w-0 flex-1 flex-col gap-x-3 sm:flex-row sm:items-baseline">
                      <span className="min-w-0 font-medium break-all">{command.label}</span>
                      {command.detail ? (
                        <span className="min-w-0 text-xs text-muted-foreground wrap-anywhere sm:ml-auto sm:max-w-[50%] sm:shrink-0 sm:text-right">
                          <span className="sr-only">, </span>
                          {command.detail}
                        </span>
                      ) : null}
                    </span>
                  </Command.Item>
                ))}
              </Command.Group>
            ))}
          </Command.List>
        </Command>
      </DialogContent>
    </Dialog>
  );
}
