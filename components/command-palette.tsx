'use client';

import { queryOptions, useQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import {
  ArrowRightLeft,
  ClipboardPaste,
  CornerDownLeft,
  type LucideIcon,
  ScrollText,
  Search,
  Users,
} from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog-parts';
import {
  DIRECTORY_SEARCH_MAX,
  type DirectoryEntryAnswer,
  searchDirectory,
} from '@/lib/console-api/directory';
import { type Environment, slugOf } from '@/lib/environments';

export type EnvironmentState = { environment: Environment; configured: boolean };

export interface CommandPaletteProps {
  environment: Environment;
  environments: EnvironmentState[];
  /** Whether the operator's role may rotate or delete by a pasted token. */
  mayPasteToken: boolean;
}

export interface CommandPaletteDialogProps extends CommandPaletteProps {
  /** What the person typed while this module was loading. */
  initialSearch: string;
  onClose: () => void;
}

export interface PaletteCommand {
  /** Unique in the palette: cmdk tracks the highlighted command by it. */
  value: string;
  label: string;
  detail?: string;
  href: string;
  icon: LucideIcon;
}

export interface PaletteSection {
  heading: string;
  commands: PaletteCommand[];
}

export const groupHref = (environment: Environment, userGroupId: string) =>
  `/${slugOf[environment]}/groups/${encodeURIComponent(userGroupId)}`;

/**
 * What the palette lists for the text typed: the group of that exact id and the groups found, then
 * the commands whose label contains the text (all of them while nothing is typed).
 */
export function paletteSections(input: {
  environment: Environment;
  environments: readonly EnvironmentState[];
  search: string;
  groups: readonly Pick<DirectoryEntryAnswer, 'userGroupId' | 'name'>[];
  mayPasteToken: boolean;
}): PaletteSection[] {
  const { environment } = input;
  const typed = input.search.trim();
  const slug = slugOf[environment];
  const toGroup = (
    value: string,
    label: string,
    userGroupId: string,
    icon: LucideIcon,
    detail?: string | null,
  ) => ({
    value,
    label,
    detail: detail ?? undefined,
    href: groupHref(environment, userGroupId),
    icon,
  });
  const userGroups: PaletteCommand[] = [
    ...(typed ? [toGroup(`open:${typed}`, `Open ${typed}`, typed, CornerDownLeft)] : []),
    ...input.groups.map(({ userGroupId, name }) =>
      toGroup(`group:${userGroupId}`, userGroupId, userGroupId, Users, name),
    ),
  ];
  const commands: PaletteCommand[] = [
    ...input.environments.map(({ environment: target, configured }) => ({
      value: `switch:${target}`,
      label: `Switch to ${target}`,
      detail: !configured ? 'not configured' : target === environment ? 'current' : undefined,
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
  return [
    { heading: `User groups in ${environment}`, commands: userGroups },
    { heading: 'Go to', commands },
  ].filter((section) => section.commands.length > 0);
}

const directorySearch = (environment: Environment, search: string) =>
  queryOptions({
    queryKey: ['directory', environment, search],
    queryFn: ({ signal }) => searchDirectory(environment, { q: search, pageSize: 8 }, signal),
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
  initialSearch,
  onClose,
}: CommandPaletteDialogProps) {
  const router = useRouter();
  const [search, setSearch] = useState(initialSearch);
  const typed = search.trim();
  const searched = useDebounced(typed, 150);
  const directory = useQuery({ ...directorySearch(environment, searched), enabled: searched !== '' });
  const current = typed !== '' && searched === typed;
  const groups = current ? (directory.data?.groups ?? []) : [];
  const sections = paletteSections({ environment, environments, search, groups, mayPasteToken });

  const go = (href: string) => {
    onClose();
    router.push(href);
  };

  const searching = typed !== '' && (!current || directory.isFetching);
  const status = searching
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
        <Command shouldFilter={false} loop label="Search user groups or jump to a page">
          <div className="flex items-center gap-2 border-b border-border px-3 focus-within:bg-muted/40">
            <Search aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
            <Command.Input
              value={search}
              onValueChange={setSearch}
              // Text typed while loading is already there: carry on after it.
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
                    onSelect={() => go(command.href)}
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
