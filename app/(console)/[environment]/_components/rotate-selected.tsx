'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConsoleApiError } from '@/lib/console-api/client';
import { jobsApi } from '@/lib/console-api/jobs';
import type { Environment } from '@/lib/environments';
import { jobPath } from './paths';

/**
 * Rotates the tokens of the groups ticked in the directory table (checkboxes named `rotate` in the
 * same form): makes a draft rotation job of their ids and opens it, where the job is checked and
 * confirmed like any other. The job fetches each group's current token itself.
 */
export function RotateSelected({ environment, slug }: { environment: Environment; slug: string }) {
  const router = useRouter();
  const [none, setNone] = useState(false);
  const create = useMutation({
    mutationFn: (ids: string[]) =>
      jobsApi.createRotate(environment, {
        source: `${ids.length} groups chosen in the directory`,
        userGroupIds: ids,
      }),
    onSuccess: (job) => router.push(jobPath(slug, job.id)),
  });
  return (
    <div className="flex flex-col items-start gap-2">
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={create.isPending}
        onClick={(event) => {
          const form = event.currentTarget.form;
          const ids = form ? new FormData(form).getAll('rotate').map(String) : [];
          setNone(ids.length === 0);
          if (ids.length > 0) create.mutate(ids);
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
          {create.error instanceof ConsoleApiError
            ? create.error.message
            : 'The console could not be reached.'}
        </Alert>
      ) : null}
    </div>
  );
}
