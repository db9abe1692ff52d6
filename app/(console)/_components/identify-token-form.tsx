'use client';

import { Eye, EyeOff, ScanSearch } from 'lucide-react';
import Link from 'next/link';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { formErrorMessage } from '@/components/form-errors';
import { takeHandedOverToken } from '@/components/token-handoff';
import { StandingBadge } from '@/components/token-standing-badge';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Identifier } from '@/components/ui/identifier';
import { Input } from '@/components/ui/input';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { type Environment, slugOf } from '@/lib/environments';
import { formatUtc } from '@/lib/time';
import { looksLikeToken, notATokenReason, type TokenIdentityAnswer } from '@/lib/tokens/contract';
import { tokenRoutes } from '@/lib/tokens/routes';
import { groupPath, jobPath } from '../[environment]/_components/paths';

type Match = TokenIdentityAnswer['matches'][number];
type TokenEvent = NonNullable<Match['issued']>;

const actionWords: Record<string, string> = {
  'get-or-create': 'a get-or-create',
  rotate: 'a rotation',
  delete: 'a deletion',
};

function eventText(event: TokenEvent): string {
  const how = actionWords[event.action] ?? event.action;
  return `${formatUtc(event.at)}${event.by ? ` by ${event.by}` : ''}, in ${how}${event.jobId ? ' of a bulk job' : ''}`;
}

// The id on one line (never "acme-" and "corp"), cut with an ellipsis if longer than the card.
const groupOf = (match: Match) => (
  <>
    <Identifier value={match.userGroupId} /> in {match.environment}
  </>
);

const standingTitle: Record<Match['standing'], (match: Match) => ReactNode> = {
  current: (match) => <>The current token of {groupOf(match)}</>,
  replaced: (match) => <>A replaced token of {groupOf(match)}</>,
  deleted: (match) => <>A token of {groupOf(match)}, a group since deleted</>,
  superseded: (match) => <>An earlier token of {groupOf(match)}</>,
};

const standingNote: Record<Match['standing'], string> = {
  current: 'It works, as this console last saw it: a rotation made outside this console is not known here.',
  replaced: 'It no longer works: it was rotated.',
  deleted: 'It no longer works: its group was deleted.',
  superseded:
    'It most likely no longer works: this console has seen the group with another token since (rotated outside this console?).',
};

/**
 * Whose token is this: a pasted token (masked unless revealed) is looked up by the console's own
 * server, in a POST body, and the answer says which group's it is, in which environment, whether
 * it still works as far as this console knows, and links to the group's page, where it is rotated
 * or deleted with the page's confirmations. `onUnknown` hands an unknown token to the forms that
 * can still act on it.
 */
export function IdentifyTokenForm({
  environment,
  onUnknown,
  allowed,
}: {
  environment: Environment;
  onUnknown: (token: string) => void;
  /** What the role may do with a token the console does not know: the answer says only that. */
  allowed: { rotate: boolean; delete: boolean };
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [token, setToken] = useState('');
  const [revealed, setRevealed] = useState(false);
  const [notAToken, setNotAToken] = useState<string | null>(null);
  const errorId = useId();
  // The token goes in the POST body only; the answer holds no token.
  const identify = useRouteMutation(tokenRoutes.identifyToken);
  const { mutate } = identify;

  // A token typed into the palette or the directory's search arrives here, and is looked up at once.
  useEffect(() => {
    const handedOver = takeHandedOverToken();
    if (!handedOver) return;
    setToken(handedOver);
    const refusal = notATokenReason(handedOver);
    if (refusal) return setNotAToken(refusal);
    mutate(
      { token: handedOver },
      {
        onSuccess: (answer) =>
          answer.matches.length === 0 && looksLikeToken(handedOver) ? onUnknown(handedOver) : undefined,
      },
    );
  }, [mutate, onUnknown]);

  const answer = identify.data;
  // Each answer is where the eye and the focus go (a support person's walk, round 3).
  const answerRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!answer) return;
    answerRef.current?.focus({ preventScroll: true });
    answerRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [answer]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Whose token is this?</CardTitle>
        <CardDescription>
          Paste a token a customer sent you: the console says which group it belongs to, in either
          environment, and whether it still works, from what it has seen. The token goes to the console’s
          server only.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <form
          aria-label="Identify a token"
          noValidate
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            const pasted = token.trim();
            if (!pasted) return inputRef.current?.focus();
            // A chat message pasted whole: said here, and never sent (nor fingerprinted, nor on record).
            const refusal = notATokenReason(pasted);
            setNotAToken(refusal);
            if (refusal) {
              identify.reset();
              return inputRef.current?.focus();
            }
            identify.mutate(
              { token: pasted },
              {
                onSuccess: (found) =>
                  found.matches.length === 0 && looksLikeToken(pasted) ? onUnknown(pasted) : undefined,
              },
            );
          }}
        >
          <label htmlFor={id} className="text-sm font-medium">
            Token
          </label>
          <div className="flex flex-wrap gap-2">
            <Input
              ref={inputRef}
              id={id}
              // Masked until Reveal, like every token on screen; never autocompleted or saved.
              type={revealed ? 'text' : 'password'}
              value={token}
              onChange={(event) => {
                setToken(event.target.value);
                setNotAToken(null);
              }}
              aria-invalid={notAToken ? true : undefined}
              aria-describedby={notAToken ? errorId : undefined}
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="off"
              data-1p-ignore
              className="min-w-0 flex-1 basis-full font-mono sm:basis-0"
              // The page is for pasting (a token handed over from a search takes the focus to its answer).
              autoFocus
            />
            <Button
              type="button"
              variant="outline"
              aria-pressed={revealed}
              aria-controls={id}
              onClick={() => setRevealed((shown) => !shown)}
            >
              {revealed ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
              {revealed ? 'Hide' : 'Reveal'}
            </Button>
            <Button type="submit" disabled={identify.isPending}>
              <ScanSearch aria-hidden="true" />
              {identify.isPending ? 'Looking…' : 'Identify'}
            </Button>
          </div>
          {notAToken ? (
            <p id={errorId} role="alert" className="text-sm text-destructive" data-testid="not-a-token">
              This {notAToken}.
            </p>
          ) : null}
        </form>

        {identify.isError ? (
          <Alert variant="error" role="alert">
            {formErrorMessage(identify.error)}
          </Alert>
        ) : null}

        {answer ? (
          <section
            ref={answerRef}
            tabIndex={-1}
            aria-label="Whose token it is"
            aria-live="polite"
            className="flex scroll-mt-28 flex-col gap-3 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <p className="text-xs text-muted-foreground">
              Fingerprint <code className="font-mono">{answer.fingerprint}</code>. As this console last saw
              it, in both environments.
            </p>
            {answer.matches.length === 0 && !looksLikeToken(identify.variables?.token ?? '') ? (
              <Alert variant="notice" role="status" className="flex flex-col items-start gap-2">
                <StandingBadge standing="not-a-token" />
                <span>
                  This does not look like a token: a token is one word of 32 or more letters and digits. Check
                  what was copied.
                </span>
              </Alert>
            ) : answer.matches.length === 0 ? (
              <Alert variant="notice" role="status" className="flex flex-col items-start gap-2">
                <StandingBadge standing="unknown" />
                <span>
                  This console has never seen this token: it may come from another system, or be mistyped.
                  {unknownTokenActions(allowed)}
                </span>
              </Alert>
            ) : (
              <ul className="flex flex-col gap-3">
                {answer.matches.map((match) => (
                  <MatchCard key={`${match.environment}/${match.userGroupId}`} match={match} />
                ))}
              </ul>
            )}
            {answer.groupsWithThatId.map((group) => (
              <p key={`${group.environment}/${group.userGroupId}`} className="text-sm">
                This is also the id of a group in {group.environment}:{' '}
                <Link
                  href={groupPath(slugOf[group.environment], group.userGroupId)}
                  className="font-medium underline underline-offset-4"
                >
                  open <Identifier value={group.userGroupId} className="underline underline-offset-4" />
                </Link>
                .
              </p>
            ))}
          </section>
        ) : null}
        {answer?.matches.length && answer.matches.every((match) => match.environment !== environment) ? (
          <p className="text-sm text-muted-foreground">
            It is not a token of a group in {environment} that this console knows.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The sentence after "never seen": only what this role's forms below can do. */
function unknownTokenActions({ rotate, delete: remove }: { rotate: boolean; delete: boolean }): string {
  if (rotate && remove) return ' You can still rotate it, or delete its group, below.';
  if (rotate) return ' You can still rotate it below.';
  if (remove) return ' You can still delete its group below.';
  return '';
}

function MatchCard({ match }: { match: Match }) {
  const slug = slugOf[match.environment];
  // One border for every answer: the badge says whether the token works, and red (Customer's
  // colour) around "Current" read as a warning (a cold walk, round 3).
  return (
    <li className="flex flex-col items-start gap-1.5 rounded-lg border border-border p-3 text-sm">
      <StandingBadge standing={match.standing} />
      <p className="font-medium">
        {standingTitle[match.standing](match)}
        {match.name ? <span className="font-normal text-muted-foreground"> ({match.name})</span> : null}
      </p>
      <p>{standingNote[match.standing]}</p>
      {match.issued ? <p className="text-muted-foreground">Issued {eventText(match.issued)}.</p> : null}
      {match.ended ? (
        <p className="text-muted-foreground">
          {match.ended.action === 'delete' ? 'Deleted' : 'Replaced'} {eventText(match.ended)}.
        </p>
      ) : null}
      <p className="flex flex-wrap gap-x-4 gap-y-1">
        {/* A deleted group's page keeps its record and history: where to see who deleted it and when. */}
        <Link href={groupPath(slug, match.userGroupId)} className="font-medium underline underline-offset-4">
          Open <Identifier value={match.userGroupId} className="underline underline-offset-4" /> in{' '}
          {match.environment}
          {match.groupDeleted ? ' (deleted)' : ''}
        </Link>
        {match.ended?.jobId ? (
          <Link href={jobPath(slug, match.ended.jobId)} className="underline underline-offset-4">
            The bulk job that {match.ended.action === 'delete' ? 'deleted' : 'rotated'} it
          </Link>
        ) : null}
      </p>
    </li>
  );
}
