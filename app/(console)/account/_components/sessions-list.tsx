'use client';

import { sessionsKey, useSessions } from '@/app/(console)/account/_hooks/use-sessions';
import { formErrorMessage } from '@/components/form-errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { sessionRoutes } from '@/lib/sessions/routes';
import { formatUtc } from '@/lib/time';

/** The operator's open sessions: where and when each signed in, and a way to end any of them. */
export function SessionsList() {
  const sessions = useSessions();
  // One session or every other one; then the list is read again.
  const end = useRouteMutation(sessionRoutes.endSessions, { invalidates: sessionsKey });
  if (sessions.isPending) return <p className="text-sm text-muted-foreground">Loading your sessions…</p>;
  if (sessions.isError)
    return (
      <Alert variant="error" role="alert">
        {formErrorMessage(sessions.error)}
      </Alert>
    );
  const list = sessions.data.sessions;
  const others = list.filter((session) => !session.current).length;
  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-col divide-y divide-border rounded-md border border-border">
        {list.map((session) => (
          <li
            key={session.id}
            className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm"
          >
            <div className="flex min-w-0 flex-col">
              <span className="font-medium">
                {session.browser}
                {session.current ? (
                  <span className="font-normal text-muted-foreground"> · this browser</span>
                ) : null}
              </span>
              <span className="text-xs text-muted-foreground">
                {session.address ?? 'address unknown'} · signed in {formatUtc(session.signedInAt)}
                {session.signInMethod === 'sso' ? ' through single sign-on' : ''}
                {session.confirmedAt ? ` · confirmed ${formatUtc(session.confirmedAt)}` : ''}
              </span>
            </div>
            {session.current ? null : (
              <Button
                size="sm"
                variant="outline"
                disabled={end.isPending}
                aria-label={`End the session of ${session.browser} signed in ${formatUtc(session.signedInAt)}`}
                onClick={() => end.mutate({ sessionId: session.id })}
              >
                End
              </Button>
            )}
          </li>
        ))}
      </ul>
      {end.isError ? (
        <Alert variant="error" role="alert">
          {formErrorMessage(end.error)}
        </Alert>
      ) : null}
      {others > 0 ? (
        <div>
          <Button variant="outline" disabled={end.isPending} onClick={() => end.mutate({ others: true })}>
            End every other session
          </Button>
        </div>
      ) : null}
    </div>
  );
}
