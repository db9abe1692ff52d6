import { describe, expect, it } from 'vitest';
import {
  commandOf,
  firstChoiceOf,
  groupHref,
  noSelectionOtherThan,
  paletteSections,
  paletteStatus,
  preselected,
} from './command-palette-model';

const environments = [
  { environment: 'Customer', configured: true },
  { environment: 'Testing', configured: false },
] as const;

type Group = { userGroupId: string; name: string | null };

/** What a support person's palette lists in Customer for the text typed and the groups found. */
const sectionsFor = (search: string, groups: Group[] = []) =>
  paletteSections({
    environment: 'Customer',
    environments,
    search,
    groups,
    mayPasteToken: true,
    mayCreate: true,
  });

const listed = (search: string, groups: Group[] = []) =>
  sectionsFor(search, groups).map((section) => ({
    heading: section.heading,
    commands: section.commands.map(({ label, detail, href }) => ({ label, detail, href })),
  }));

describe('paletteSections', () => {
  it('lists every command while nothing is typed (switching only to the other environment); one without a key says so but stays reachable', () => {
    expect(listed('  ')).toEqual([
      {
        heading: 'Go to',
        commands: [
          { label: 'Switch to Testing', detail: 'not configured', href: '/testing' },
          { label: 'Open the audit log', href: '/audit?environment=Customer' },
          { label: 'Paste a token', href: '/customer/paste-token' },
        ],
      },
    ]);
  });

  it('lists the group of the exact id first, then the groups found, then the commands, and creating apart', () => {
    const groups = [
      { userGroupId: 'audit/10', name: 'Audit Inc.' },
      { userGroupId: 'audit/1', name: null },
    ];
    expect(listed(' audit/1 ', groups)).toEqual([
      {
        heading: 'User groups in Customer',
        commands: [
          { label: 'audit/1', href: '/customer/groups/audit%2F1' },
          { label: 'audit/10', detail: 'Audit Inc.', href: '/customer/groups/audit%2F10' },
        ],
      },
    ]);
    expect(listed('AUDIT').map((section) => section.commands.map((command) => command.label))).toEqual([
      ['Open the audit log'],
      ['Create “AUDIT”'],
    ]);
    expect(listed('acme', [{ userGroupId: 'acme-corp', name: null }])).toEqual([
      {
        heading: 'User groups in Customer',
        commands: [{ label: 'acme-corp', href: '/customer/groups/acme-corp' }],
      },
      {
        heading: 'Create',
        commands: [
          { label: 'Create “acme”', detail: 'opens the form, in Customer', href: '/customer/new?id=acme' },
        ],
      },
    ]);
  });

  it('preselects the real match, never the create form', () => {
    expect(preselected(sectionsFor('acme', [{ userGroupId: 'acme-corp', name: null }]))).toBe(
      'group:acme-corp',
    );
    expect(preselected(sectionsFor('nothing-like-it'))).toBe('');
  });

  it('never preselects switching to Customer: a reflex Enter in Testing stays out of production', () => {
    const inTesting = paletteSections({
      environment: 'Testing',
      environments: [
        { environment: 'Customer', configured: true },
        { environment: 'Testing', configured: true },
      ],
      search: '',
      groups: [],
      mayPasteToken: true,
      mayCreate: true,
    });
    expect(inTesting[0]?.commands[0]?.value).toBe('switch:Customer');
    expect(preselected(inTesting)).toBe('audit');
  });

  it('takes token-shaped text to Identify only: no group, no search, no create', () => {
    const token = 'a3f1'.repeat(16);
    expect(listed(token)).toEqual([
      {
        heading: 'Token',
        commands: [
          {
            label: 'Identify this token',
            detail: 'whose it is, in both environments',
            href: '/customer/paste-token',
          },
        ],
      },
    ]);
    const sections = sectionsFor(token);
    expect(
      JSON.stringify(sections.map((section) => section.commands.map((command) => command.href))),
    ).not.toContain(token);
  });

  it('gives every command a distinct value', () => {
    const sections = paletteSections({
      mayPasteToken: true,
      mayCreate: true,
      environment: 'Testing',
      environments,
      search: 'a',
      groups: [
        { userGroupId: 'a', name: null },
        { userGroupId: 'A', name: null },
      ],
    });
    const values = sections.flatMap((section) => section.commands.map((command) => command.value));
    expect(new Set(values).size).toBe(values.length);
  });
});

describe('groupHref', () => {
  it('encodes the id as one path segment', () => {
    expect(groupHref('Testing', 'a b/c?d#e')).toBe('/testing/groups/a%20b%2Fc%3Fd%23e');
  });

  it('offers Paste a token only to a role that may use it', () => {
    const labels = paletteSections({
      environment: 'Testing',
      environments,
      search: '',
      groups: [],
      mayPasteToken: false,
      mayCreate: false,
    })
      .flatMap((section) => section.commands)
      .map((command) => command.label);
    expect(labels).not.toContain('Paste a token');
  });
});

describe('the selection', () => {
  const found = [{ userGroupId: 'acme-corp', name: null }];

  it('finds a listed command by its value, and none by a value no command has', () => {
    const sections = sectionsFor('acme', found);
    expect(commandOf(sections, 'group:acme-corp')?.label).toBe('acme-corp');
    expect(commandOf(sections, 'create:acme')?.neverPreselected).toBe(true);
    expect(commandOf(sections, firstChoiceOf(sections, true))).toBeUndefined();
  });

  it('selects the preselected command once the search answered, and none while it runs or when only creating is left', () => {
    expect(firstChoiceOf(sectionsFor('acme', found), false)).toBe('group:acme-corp');
    const whileSearching = firstChoiceOf(sectionsFor('acme', found), true);
    const onlyCreate = firstChoiceOf(sectionsFor('nothing-like-it'), false);
    expect(whileSearching).toBe(onlyCreate);
    expect(commandOf(sectionsFor('nothing-like-it'), onlyCreate)).toBeUndefined();
  });

  it('gives cmdk another value of none each time, so that its own choice never sticks', () => {
    const none = firstChoiceOf([], false);
    const again = noSelectionOtherThan(none);
    expect(again).not.toBe(none);
    expect(noSelectionOtherThan(again)).toBe(none);
    expect(commandOf(sectionsFor('acme', found), again)).toBeUndefined();
  });
});

describe('paletteStatus', () => {
  const quiet = {
    environment: 'Customer',
    typed: '',
    token: false,
    mayPasteToken: true,
    searching: false,
    noGroupFound: false,
  } as const;
  const cases: Array<[string, Partial<Parameters<typeof paletteStatus>[0]>, string]> = [
    ['asks for an id or a name while nothing is typed', {}, 'Type an id or a name to search Customer.'],
    ['says it searches', { typed: 'acme', searching: true }, 'Searching Customer…'],
    [
      'says no group was found, naming what was typed',
      { typed: 'acme', noGroupFound: true },
      'No user group in Customer has an id or name containing “acme”.',
    ],
    ['says nothing once groups are listed', { typed: 'acme' }, ''],
    [
      'says Enter identifies a token (never searched)',
      { typed: 'a3f1', token: true, searching: true },
      'That looks like a token: Enter identifies it (it is not searched).',
    ],
    [
      'tells a role that may not paste tokens that it cannot identify one',
      { typed: 'a3f1', token: true, mayPasteToken: false },
      'That looks like a token, which is not searched. Your role cannot identify tokens.',
    ],
  ];
  it.each(cases)('%s', (_, change, expected) => {
    expect(paletteStatus({ ...quiet, ...change })).toBe(expected);
  });
});
