import { describe, expect, it } from 'vitest';
import { groupHref, paletteSections } from './command-palette';

const environments = [
  { environment: 'Customer', configured: true },
  { environment: 'Testing', configured: false },
] as const;

const listed = (search: string, groups: { userGroupId: string; name: string | null }[] = []) =>
  paletteSections({ environment: 'Customer', environments, search, groups, mayPasteToken: true }).map(
    (section) => ({
      heading: section.heading,
      commands: section.commands.map(({ label, detail, href }) => ({ label, detail, href })),
    }),
  );

describe('paletteSections', () => {
  it('lists every command while nothing is typed; an environment without a key says so but stays reachable', () => {
    expect(listed('  ')).toEqual([
      {
        heading: 'Go to',
        commands: [
          { label: 'Switch to Customer', detail: 'current', href: '/customer' },
          { label: 'Switch to Testing', detail: 'not configured', href: '/testing' },
          { label: 'Open the audit log', href: '/audit?environment=Customer' },
          { label: 'Paste a token', href: '/customer/paste-token' },
        ],
      },
    ]);
  });

  it('opens the exact id typed, then the groups found, then the commands that match', () => {
    expect(listed(' audit/1 ', [{ userGroupId: 'audit/10', name: 'Audit Inc.' }])).toEqual([
      {
        heading: 'User groups in Customer',
        commands: [
          { label: 'Open audit/1', href: '/customer/groups/audit%2F1' },
          { label: 'audit/10', detail: 'Audit Inc.', href: '/customer/groups/audit%2F10' },
        ],
      },
    ]);
    expect(listed('AUDIT').map((section) => section.commands.map((command) => command.label))).toEqual([
      ['Open AUDIT'],
      ['Open the audit log'],
    ]);
  });

  it('gives every command a distinct value', () => {
    const sections = paletteSections({
      mayPasteToken: true,
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
    })
      .flatMap((section) => section.commands)
      .map((command) => command.label);
    expect(labels).not.toContain('Paste a token');
  });
});
