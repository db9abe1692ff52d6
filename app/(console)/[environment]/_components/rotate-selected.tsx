'use client';

import { useEffect, useRef, useState } from 'react';
import { formErrorMessage } from '@/components/form-errors';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import type { Environment } from '@/lib/environments';
import { plural } from '@/lib/plural';
import { useCreateRotateJob } from '../bulk/_hooks/use-create-job';
import { rowCheckboxes } from './select-all-on-page';

type RotateSelectedProps = {
  environment: Environment;
  /** The search shown, when it matches more groups than this page shows (and they were all counted). */
  allMatches: { search: string; count: number } | null;
};

/**
 * Rotates the tokens of the groups ticked in the directory table (checkboxes named `rotate` in the
 * same form): makes a draft rotation job of their ids and opens it, where the job is checked and
 * confirmed like any other. The job fetches each group's current token itself. When every group
 * on the page is ticked and the search matches more, all its matches can be chosen: the server
 * then makes the job from the search itself.
 */
export function RotateSelected({ environment, allMatches }: RotateSelectedProps) {
  const [none, setNone] = useState(false);
  const [ticked, setTicked] = useState({ count: 0, all: false });
  const [everyMatch, setEveryMatch] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  const create = useCreateRotateJob(environment);

  useEffect(() => {
    const form = anchor.current?.closest('form');
    if (!form) return;
    const follow = () => {
      const rows = rowCheckboxes(form);
      const count = rows.filter((row) => row.checked).length;
      setTicked({ count, all: rows.length > 0 && count === rows.length });
      // Unticking a row leaves "all matches" for the groups still ticked.
      if (count < rows.length) setEveryMatch(false);
      if (count > 0) setNone(false);
    };
    follow();
    form.addEventListener('change', follow);
    return () => form.removeEventListener('change', follow);
  }, []);

  const choosingAll = everyMatch && allMatches !== null;
  return (
    <div ref={anchor} className="flex flex-col items-start gap-2">
      {allMatches && ticked.all ? (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="selection-scope">
          <span>
            {choosingAll
              ? `All ${plural(allMatches.count, 'group')} matching “${allMatches.search}” are selected.`
              : `All ${plural(ticked.count, 'group')} on this page are selected.`}
          </span>
          <Button type="button" variant="outline" size="sm" onClick={() => setEveryMatch(!choosingAll)}>
            {choosingAll
              ? 'Select only this page'
              : `Select all ${allMatches.count.toLocaleString('en-US')} matches`}
          </Button>
        </div>
      ) : null}
      <p role="status" className="sr-only">
        {choosingAll && allMatches
          ? `${plural(allMatches.count, 'group')} selected`
          : ticked.count > 0
            ? `${plural(ticked.count, 'group')} selected`
            : ''}
      </p>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={create.isPending}
        onClick={(event) => {
          if (choosingAll) {
            create.mutate(async () => ({
              source: `${plural(allMatches.count, 'group')} matching “${allMatches.search}” in the directory`,
              search: allMatches.search,
            }));
            return;
          }
          const ids = rowCheckboxes(event.currentTarget.form)
            .filter((row) => row.checked)
            .map((row) => row.value);
          setNone(ids.length === 0);
          if (ids.length > 0)
            create.mutate(async () => ({
              source: `${plural(ids.length, 'group')} chosen in the directory`,
              userGroupIds: ids,
            }));
        }}
      >
        Rotate tokens of the selected groups…
      </Button>
      {none ? (
        <p role="status" className="text-sm text-muted-foreground">
          Tick the groups to rotate first.
        </p>
      ) : null}
      {create.isError ? (
        <Alert variant="error" role="alert">
          {formErrorMessage(create.error, 'The console could not be reached.')}
        </Alert>
      ) : null}
    </div>
  );
}
