'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { lazy, Suspense, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { type Environment, slugOf } from '@/lib/environments';
import type { GetOrCreateRequest } from '@/lib/user-group-api/contract';
import type { GetOrCreateResult } from '@/lib/user-groups/contract';
import { userGroupRoutes } from '@/lib/user-groups/routes';
import { groupPath } from '../[environment]/_components/paths';
import {
  emptyGetOrCreateForm,
  type GetOrCreateFormValues,
  getOrCreateFormFields,
  getOrCreateFormSchema,
} from './get-or-create.schema';
import { toGetOrCreateRequest } from './get-or-create.utils';
import { JsonTextField } from './json-text-field';

/**
 * Shown after a success only: fetched then, not with the form (React's lazy: next/dynamic's loader
 * would itself weigh about 1 kB on the page).
 */
const UserGroupResult = lazy(() =>
  import('./user-group-result').then((module) => ({ default: module.UserGroupResult })),
);

/** One answer; `id` grows with each, so a repeated answer is shown afresh (its token masked again). */
type Outcome = { id: number; request: GetOrCreateRequest; result: GetOrCreateResult };

type GetOrCreateSectionProps = {
  environment: Environment;
  /** The id the person asked to create, filled in. */
  initialId?: string;
  /**
   * A deleted group being created again: its name, mapping and properties as the directory recorded
   * them, filled in, and when it was deleted.
   */
  recorded?: { values: Omit<GetOrCreateFormValues, 'user_group_id'>; deleted: string } | null;
};

/** Create a user group (or get the existing one, unchanged) in one environment. */
export function GetOrCreateSection({
  environment,
  initialId = '',
  recorded = null,
}: GetOrCreateSectionProps) {
  const id = useId();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const form = useForm({
    resolver: zodResolver(getOrCreateFormSchema),
    defaultValues: { ...emptyGetOrCreateForm, ...recorded?.values, user_group_id: initialId },
    mode: 'onChange',
  });
  const { errors } = form.formState;

  // Nothing cached changes: the directory is read on the server at the next load of its page.
  const getOrCreate = useRouteMutation(userGroupRoutes.getOrCreate, {
    params: { environment: slugOf[environment] },
    onSuccess: (result, request) =>
      setOutcome((previous) => ({ id: (previous?.id ?? 0) + 1, request, result })),
    onError: (error) => {
      for (const { name, message } of serverFieldErrors(error, getOrCreateFormFields)) {
        form.setError(name, { type: 'server', message });
      }
    },
  });

  const onSubmit = form.handleSubmit(
    (values) => getOrCreate.mutate(toGetOrCreateRequest(values)),
    () => getOrCreate.reset(),
  );

  return (
    <section>
      <Card>
        <CardHeader>
          {/* The page's own heading (#43: the create page had no h1). */}
          <h1 className="text-xl leading-tight font-semibold tracking-tight">
            Create a user group in {environment}
          </h1>
          <CardDescription>
            If no user group has this ID yet, a new one is created with these values. If one exists already,
            it is returned unchanged: its name, mapping and properties stay as they are.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          {recorded ? (
            <Alert variant="neutral">
              {initialId} was deleted {recorded.deleted}. Its name, mapping and properties below are what this
              console recorded of it: check them before creating it again. It gets a new token.
            </Alert>
          ) : null}
          <form
            aria-label="Create a user group"
            noValidate
            onSubmit={onSubmit}
            className="flex flex-col gap-5"
          >
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField
                id={`${id}-user-group-id`}
                label="User group ID"
                description="The ID your own system uses for this group."
                error={errors.user_group_id?.message}
              >
                {(control) => (
                  <Input
                    {...control}
                    autoComplete="off"
                    spellCheck={false}
                    className="font-mono"
                    {...form.register('user_group_id')}
                  />
                )}
              </FormField>
              <FormField id={`${id}-name`} label="Name" description="Optional." error={errors.name?.message}>
                {(control) => (
                  <Input
                    {...control}
                    autoComplete="off"
                    // Arrived with the id filled in (the directory's or the palette's Create): the
                    // next thing to type is the name, not the page's top.
                    autoFocus={initialId !== ''}
                    {...form.register('name')}
                  />
                )}
              </FormField>
            </div>
            <JsonTextField
              control={form.control}
              name="mapping"
              id={`${id}-mapping`}
              label="Mapping"
              description="Optional. A JSON object from schema ID to data source ID (a string or an integer)."
              placeholder={'{ "sales": "warehouse-1", "marketing": 42 }'}
            />
            <JsonTextField
              control={form.control}
              name="properties"
              id={`${id}-properties`}
              label="Properties"
              description="Optional. A JSON object; its values become variables in dashboards and the SQL editor."
              placeholder={'{ "plan": "enterprise", "seats": 10 }'}
            />
            {getOrCreate.isError ? (
              <Alert variant="error" role="alert">
                {formErrorMessage(getOrCreate.error)}
              </Alert>
            ) : null}
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" disabled={getOrCreate.isPending}>
                {getOrCreate.isPending ? 'Working…' : 'Create user group'}
              </Button>
            </div>
          </form>

          {outcome ? (
            <Suspense fallback={null}>
              <UserGroupResult
                key={outcome.id}
                request={outcome.request}
                result={outcome.result}
                groupHref={groupPath(slugOf[environment], outcome.result.user_group.provided_id)}
                production={environment === 'Customer'}
              />
            </Suspense>
          ) : null}
        </CardContent>
      </Card>
    </section>
  );
}
