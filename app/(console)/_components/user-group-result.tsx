'use client';

import Link from 'next/link';
import { useEffect, useId, useRef } from 'react';
import { SecretField } from '@/components/secret-field';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Identifier } from '@/components/ui/identifier';
import type { GetOrCreateRequest } from '@/lib/user-group-api/contract';
import type { GetOrCreateResult } from '@/lib/user-groups/contract';
import { DetailsList, OrNone } from './details-list';
import { unchangedGroupNotices } from './get-or-create.utils';

type UserGroupResultProps = {
  request: GetOrCreateRequest;
  result: GetOrCreateResult;
  /** The group's page, where it is rotated or deleted. */
  groupHref: string;
  /** Customer: revealing or copying its token asks for a recent authentication, as creating it did. */
  production: boolean;
};

/** What get-or-create returned: created or existing, the group's fields, and its token. */
export function UserGroupResult({ request, result, groupHref, production }: UserGroupResultProps) {
  const headingId = useId();
  const { user_group: userGroup, new_user_group: created } = result;
  const notices = unchangedGroupNotices(request, result);
  // The answer is where the eye and the focus go: below the form it was off screen at 1280×800, and
  // the focus fell to the page. Each new answer is a new mount (its key).
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
    headingRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, []);

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-lg border border-border bg-background/60 p-4 sm:p-5"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2
          id={headingId}
          ref={headingRef}
          tabIndex={-1}
          className="scroll-mt-28 rounded-sm text-sm font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          User group <Identifier value={userGroup.provided_id} />
          <span className="sr-only">{created ? ', created' : ', existing'}</span>
        </h2>
        {created ? <Badge variant="success">Created</Badge> : <Badge variant="info">Existing</Badge>}
      </div>

      {notices.length > 0 ? (
        <Alert variant="notice" className="flex flex-col gap-1">
          {notices.map((notice) => (
            <p key={notice}>{notice}</p>
          ))}
        </Alert>
      ) : null}

      <DetailsList
        details={[
          {
            term: 'Team ID',
            description: <code className="font-mono text-[13px]">{userGroup.team_id}</code>,
          },
          { term: 'Name', description: <OrNone value={userGroup.name} /> },
          { term: 'User group ID', description: <OrNone value={userGroup.provided_id} mono /> },
          {
            // The service never returns a mapping: what was sent is all there is to show (#43).
            term: 'Mapping sent',
            description:
              request.mapping === undefined ? (
                <OrNone value={null} />
              ) : (
                <div className="flex flex-col gap-1">
                  <pre
                    data-testid="mapping-sent"
                    className="rounded-md bg-muted px-3 py-2 font-mono text-[13px] leading-5 whitespace-pre-wrap wrap-anywhere"
                  >
                    {JSON.stringify(request.mapping, null, 2)}
                  </pre>
                  {created ? null : (
                    <span className="text-xs text-muted-foreground">
                      Not applied: the group existed already, with its own mapping.
                    </span>
                  )}
                </div>
              ),
          },
          {
            term: 'Properties',
            description:
              userGroup.properties === null ? (
                <OrNone value={null} />
              ) : (
                <pre className="rounded-md bg-muted px-3 py-2 font-mono text-[13px] leading-5 whitespace-pre-wrap wrap-anywhere">
                  {JSON.stringify(userGroup.properties, null, 2)}
                </pre>
              ),
          },
        ]}
      />

      <SecretField label="Token" value={userGroup.token} confirmFirst={production} />

      <div className="flex flex-wrap items-center gap-3">
        <Link href={groupHref} className="text-sm font-medium underline underline-offset-4">
          Open the group's page
        </Link>
        <p className="text-xs text-muted-foreground">
          Save the token: it identifies this group when rendering an embedded dashboard.
        </p>
      </div>
    </section>
  );
}
