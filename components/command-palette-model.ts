/**
 * What the command palette lists and says, as pure functions of what was typed, the operator's role
 * and the environment: the dialog (command-palette.tsx) only renders them.
 */
import {
  ArrowRightLeft,
  ClipboardPaste,
  type LucideIcon,
  Plus,
  ScanSearch,
  ScrollText,
  Users,
} from 'lucide-react';
import type { DirectoryEntryAnswer } from '@/lib/directory/contract';
import { type Environment, slugOf } from '@/lib/environments';
import { looksLikeToken } from '@/lib/tokens/contract';

export type EnvironmentState = { environment: Environment; configured: boolean };

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
        // A reflex Enter in Testing must not land in production (a cold walk, round 3).
        neverPreselected: target === 'Customer',
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

export function commandOf(sections: readonly PaletteSection[], value: string): PaletteCommand | undefined {
  return sections.flatMap((section) => section.commands).find((command) => command.value === value);
}

/** The command Enter takes: the first one, unless only the create form is left. */
export function preselected(sections: readonly PaletteSection[]): string {
  return (
    sections.flatMap((section) => section.commands).find((command) => !command.neverPreselected)?.value ?? ''
  );
}

/** A value no command has: nothing is selected, so Enter does nothing until an arrow moves. */
const NOTHING_SELECTED = 'nothing-selected';
const NOTHING_SELECTED_AGAIN = 'nothing-selected-again';

/**
 * What the palette selects as its list changes: the preselected command once the search has
 * answered, else none. (cmdk selects the first item whenever its value is empty: a value no item
 * has selects none.)
 */
export function firstChoiceOf(sections: readonly PaletteSection[], searching: boolean): string {
  return (searching ? '' : preselected(sections)) || NOTHING_SELECTED;
}

/**
 * No selection again, as a value other than the one given now: cmdk's own choice sticks unless the
 * value given to it changes.
 */
export function noSelectionOtherThan(current: string): string {
  return current === NOTHING_SELECTED ? NOTHING_SELECTED_AGAIN : NOTHING_SELECTED;
}

/** The line under the search field (read out politely by screen readers); '' says nothing. */
export function paletteStatus(input: {
  environment: Environment;
  /** The search, trimmed. */
  typed: string;
  token: boolean;
  mayPasteToken: boolean;
  searching: boolean;
  /** The search for what is typed now answered with no group. */
  noGroupFound: boolean;
}): string {
  const { environment, typed } = input;
  if (input.token)
    return input.mayPasteToken
      ? 'That looks like a token: Enter identifies it (it is not searched).'
      : 'That looks like a token, which is not searched. Your role cannot identify tokens.';
  if (input.searching) return `Searching ${environment}…`;
  if (input.noGroupFound) return `No user group in ${environment} has an id or name containing “${typed}”.`;
  return typed === '' ? `Type an id or a name to search ${environment}.` : '';
}
