'use client';

import { queryOptions, useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import {
  ArrowRightLeft,
  ClipboardPaste,
  type LucideIcon,
  Plus,
  ScanSearch,
  ScrollText,
  Search,
  Users,
} from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog-parts';
import { callRoute } from '@/lib/browser-client/console-client';
import {
  DIRECTORY_SEARCH_MAX,
  type DirectoryEntryAnswer,
  directoryQueryString,
} from '@/lib/console-api/directory';
import { consoleRoutes } from '@/lib/console-api/routes';
import { looksLikeToken } from '@/lib/console-api/tokens';
import { type Environment, slugOf } from '@/lib/environments';
import { navigateGuarded } from './navigation-guard';
import { handOverToken } from './token-handoff';

export type EnvironmentState = { environment: Environment; configured: boolean };

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

export interface PaletteCommand {
  /** Unique in the palette: cmdk tracks the highlighted command by it. */
  value: string;
  label: string;
  detail?: string;
  href: string;
  icon: LucideIcon;
  /** The typed text is a token: it travels to the Identify form in memory, never in the URL. */
  handsOverToken?: boolean;
  /** Never selected by itself: Enter must not create a group by accident. */
  neverPreselected?: boolean;
}

export interface PaletteSection {
  heading: string;
  commands: PaletteCommand[];
}

export const groupHref = (environment: Environment, userGroupId: string) =>
  `/${slugOf[environment]}/groups/${encodeURIComponent(userGroupId)}`;

/**
 * What the palette lists for the text typed: the group of exactly that id first, then the other
 * groups found, then the commands whose label contains the text (all of them while nothing is
 * typed), and last, apart, the form to create a group of that id. Text that looks like a token
 * lists only "Identify this token": it must reach no URL and no search.
 */
export function paletteSections(input: {
  environment: Environment;
  environments: readonly EnvironmentState[];
  search: string;
  groups: readonly Pick<DirectoryEntryAnswer, 'userGroupId' | 'name'>[];
  mayPasteToken: boolean;
  mayCreate: boolean;
}): PaletteSection[] {
  const { environment } = input;
  const typed = input.search.trim();
  const slug = slugOf[environment];
  if (looksLikeToken(typed)) {
    const identify: PaletteCommand = {
      value: 'identify-token',
      label: 'Identify this token',
      detail: 'whose it is, in both environments',
      href: `/${slug}/paste-token`,
      icon: ScanSearch,
      handsOverToken: true,
    };
    return input.mayPasteToken ? [{ heading: 'Token', commands: [identify] }] : [];
  }
  const exact = input.groups.filter(({ userGroupId }) => userGroupId === typed);
  const userGroups: PaletteCommand[] = [
    ...exact,
    ...input.groups.filter((group) => !exact.includes(group)),
  ].map(({ userGroupId, name }) => ({
    value: `group:${userGroupId}`,
    label: userGroupId,
    detail: name ?? undefined,
    href: groupHref(environment, userGroupId),
    icon: Users,
  }));
  const commands: PaletteCommand[] = [
    // The other environment only: "Switch to Customer (current)" was the first, preselected, command.
    ...input.environments
      .filter(({ environment: target }) => target !== environment)
      .map(({ environment: target, configured }) => ({
        value: `switch:${target}`,
        label: `Switch to ${target}`,
        detail: !configured ? 'not configured' : undefined,
        href: `/${slugOf[target]}`,
        icon: ArrowRightLeft,
      })),
    {
      value: 'audit',
      label: 'Open the audit log',
      href: `/audit?environment=${environment}`,
      icon: ScrollText,
    },
    ...(input.mayPasteToken
      ? [{ value: 'paste-token', label: 'Paste a token', href: `/${slug}/paste-token`, icon: ClipboardPaste }]
      : []),
  ].filter((command) => command.label.toLowerCase().includes(typed.toLowerCase()));
  const create: PaletteCommand[] =
    typed && input.mayCreate && exact.length === 0
      ? [
          {
            value: `create:${typed}`,
            label: `Create “${typed}”`,
            detail: `opens the form, in ${environment}`,
            href: `/${slug}/new?id=${encodeURIComponent(typed)}`,
            icon: Plus,
            neverPreselected: true,
          },
        ]
      : [];
  return [
    { heading: `User groups in ${environment}`, commands: userGroups },
    { heading: 'Go to', commands },
    { heading: 'Create', commands: create },
  ].filter((section) => section.commands.length > 0);
}

/** A value no command has: nothing is selected, so Enter does nothing until an arrow moves. */
const NOTHING_SELECTED = 'nothing-selected';
const NOTHING_SELECTED_AGAIN = 'nothing-selected-again';

/** The command Enter takes: the first one, unless only the create form is left. */
export function preselected(sections: readonly PaletteSection[]): string {
  return (
    sections.flatMap((section) => section.commands).find((command) => !command.neverPreselected)?.value ?? ''
  );
}

const directorySearch = (environment: Environment, search: string) =>
  queryOptions({
    queryKey: ['directory', environment, search],
    queryFn: ({ signal }) =>
      callRoute(consoleRoutes.directorySearch, {
        params: { environment: slugOf[environment] },
        query: directoryQueryString({ q: search, pageSize: 8 }),
        signal,
      }),
    retry: false,
  });

function useDebounced<Value>(value: Value, delayMs: number): Value {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
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
  const token = looksLikeToken(typed);
  const searched = useDebounced(token ? '' : typed, 150);
  // A token is never searched: it would travel in the search's URL.
  const directory = useQuery({
    ...directorySearch(environment, searched),
    enabled: searched !== '' && !token,
  });
  const current = typed !== '' && searched === typed;
  const groups = current ? (directory.data?.groups ?? []) : [];
  const sections = paletteSections({ environment, environments, search, groups, mayPasteToken, mayCreate });
  const searching = !token && typed !== '' && (!current || directory.isFetching);
  // Enter pressed before the search answered: taken as soon as it does, never lost.
  const [enterPending, setEnterPending] = useState(false);
  // Whether the person moved the selection (arrows, pointer) since the search last changed.
  const navigated = useRef(false);
  // cmdk selects the first item whenever its value is empty: a value no item has selects none.
  const firstChoice = (searching ? '' : preselected(sections)) || NOTHING_SELECTED;
  const [selected, setSelected] = useState(firstChoice);
  const [shownFor, setShownFor] = useState(firstChoice);
  if (shownFor !== firstChoice) {
    setShownFor(firstChoice);
    setSelected(firstChoice);
  }

  const go = (command: PaletteCommand) => {
    if (command.handsOverToken) handOverToken(typed);
    onClose();
    navigateGuarded(() => router.push(command.href));
  };
  const commandOf = (value: string) =>
    sections.flatMap((section) => section.commands).find((command) => command.value === value);

  useEffect(() => {
    if (!enterPending || searching) return;
    setEnterPending(false);
    const command = commandOf(firstChoice);
    if (command) go(command);
  });

  const status = token
    ? mayPasteToken
      ? 'That looks like a token: Enter identifies it (it is not searched).'
      : 'That looks like a token, which is not searched. Your role cannot identify tokens.'
    : searching
      ? `Searching ${environment}…`
      : current && directory.isSuccess && groups.length === 0
        ? `No user group in ${environment} has an id or name containing “${typed}”.`
        : typed === ''
          ? `Type an id or a name to search ${environment}.`
          : '';

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        data-command-palette
        className="top-[12dvh] max-w-xl translate-y-0 gap-0 overflow-hidden p-0 sm:p-0"
      >
        <DialogTitle className="sr-only">Command palette</DialogTitle>
        <DialogDescription className="sr-only">
          Search the user groups of {environment}, or jump to a page. Arrows move, Enter opens.
        </DialogDescription>
        <Command
          shouldFilter={false}
          loop
          label="Search user groups or jump to a page"
          value={selected}
          onValueChange={(value) => {
            // cmdk selects the first item by itself as the list changes: never the create form. Its
            // own choice sticks unless the value given to it changes: give it the other value of none.
            if (!navigated.current && commandOf(value)?.neverPreselected)
              return setSelected((current) =>
                current === NOTHING_SELECTED ? NOTHING_SELECTED_AGAIN : NOTHING_SELECTED,
              );
            setSelected(value);
          }}
          onKeyDown={(event) => {
            if (/^(Arrow(Up|Down)|Home|End|Page(Up|Down))$/.test(event.key)) navigated.current = true;
          }}
        >
          <div className="flex items-center gap-2 border-b border-border px-3 focus-within:bg-muted/40">
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
              className="h-12 w-full min-w-0 bg-transparent text-sm text-foreground outline-none placeholder:text-muted-foreground"
            />
          </div>
          <p aria-live="polite" className="px-4 pt-2 text-xs text-muted-foreground empty:hidden">
            {status}
          </p>
          {current && directory.isError ? (
            <p
              role="alert"
              className="mx-3 mt-2 rounded-md bg-destructive/5 px-2 py-1.5 text-sm text-destructive"
            >
              {directory.error.message}
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
                    className="flex cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-2 text-sm text-foreground outline-none data-[disabled=true]:cursor-not-allowed data-[disabled=true]:text-muted-foreground data-[selected=true]:bg-muted data-[selected=true]:ring-2 data-[selected=true]:ring-ring data-[selected=true]:ring-inset"
                  >
                    <command.icon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                    <span className="min-w-0 truncate font-medium">{command.label}</span>
                    {command.detail ? (
                      <span className="ml-auto min-w-0 max-w-[50%] truncate text-xs text-muted-foreground">
                        <span className="sr-only">, </span>
                        {command.detail}
                      </span>
                    ) : null}
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
