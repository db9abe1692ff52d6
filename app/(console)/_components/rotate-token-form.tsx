'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { formErrorMessage, serverFieldErrors } from '@/components/form-errors';
import { FormField } from '@/components/form-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { type Environment, environmentPhrase, slugOf } from '@/lib/environments';
import type { RotateRequest } from '@/lib/user-group-api/contract';
import { userGroupRoutes } from '@/lib/user-groups/routes';
import { rotateTokenFormFields, rotateTokenFormSchema } from './rotate-token.schema';
import { toRotateRequest } from './rotate-token.utils';
import { type Rotation, RotationResult } from './rotation-result';

/** A request to fill the Current token field, e.g. from the get-or-create result. */
export type RotatePrefill = { token: string; requestedAt: number };

type RotateTokenSectionProps = {
  environment: Environment;
  prefill: RotatePrefill | null;
  revokedTokens: ReadonlySet<string>;
  onTokenRevoked: (token: string) => void;
};

export function RotateTokenSection({
  environment,
  prefill,
  revokedTokens,
  onTokenRevoked,
}: RotateTokenSectionProps) {
  const id = useId();
  const focusAfterDialog = useRef<string | null>(null);
  const nextRotationId = useRef(1);
  const [confirming, setConfirming] = useState<RotateRequest | null>(null);
  // In Customer a token of a group nobody named is rotated only after the environment is typed.
  const typeToConfirm =
    environment === 'Customer' ? ({ kind: 'environment', value: environment } as const) : null;
  const [rotations, setRotations] = useState<Rotation[]>([]);
  const form = useForm({
    resolver: zodResolver(rotateTokenFormSchema),
    defaultValues: { current_token: '' },
    mode: 'onChange',
  });
  const { errors } = form.formState;
  const { setValue } = form;

  // The current token stops working at once. Never retried (components/providers.tsx): a second
  // rotation would revoke the token just issued.
  const rotate = useRouteMutation(userGroupRoutes.rotate, {
    params: { environment: slugOf[environment] },
    onSuccess: (result, request) => {
      const rotation = { id: nextRotationId.current++, oldToken: request.current_token, result };
      // Newest first; earlier ones stay until each is copied or closed.
      setRotations((current) => [rotation, ...current]);
      focusAfterDialog.current = rotationHeadingId(id, rotation.id);
      onTokenRevoked(request.current_token);
      form.reset({ current_token: '' });
    },
    onError: (error) => {
      for (const { name, message } of serverFieldErrors(error, rotateTokenFormFields)) {
        form.setError(name, { type: 'server', message });
      }
    },
    onSettled: () => setConfirming(null),
  });

  useEffect(() => {
    if (!prefill) return;
    // Filled in, not focused nor scrolled to: the answer that says whose token it is keeps the eye and
    // the focus, and a prefilled Customer field is not one Enter away from a rotation.
    setValue('current_token', prefill.token, { shouldDirty: true, shouldValidate: true });
  }, [prefill, setValue]);

  const onSubmit = form.handleSubmit(
    (values) => setConfirming(toRotateRequest(values)),
    () => rotate.reset(),
  );

  const tokenId = `${id}-current-token`;

  return (
    <section className="scroll-mt-4">
      <Card>
        <CardHeader>
          <CardTitle>Rotate token</CardTitle>
          <CardDescription>
            Issues a new token for the group that holds the current one. The current token stops working at
            once.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          <form aria-label="Rotate token" noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
            <FormField
              id={tokenId}
              label="Current token"
              description="Paste the token, or use Rotate token on a get-or-create result."
              error={errors.current_token?.message}
            >
              {(control) => (
                <Input
                  {...control}
                  // Masked like every token on screen: it may arrive filled in from Identify.
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  autoCapitalize="off"
                  data-1p-ignore
                  className="font-mono"
                  {...form.register('current_token')}
                />
              )}
            </FormField>
            {rotate.isError ? (
              <Alert variant="error" role="alert">
                {formErrorMessage(rotate.error)}
              </Alert>
            ) : null}
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" disabled={rotate.isPending}>
                {rotate.isPending ? 'Working…' : 'Rotate token'}
              </Button>
            </div>
          </form>

          {rotations.map((rotation) => (
            <RotationResult
              key={rotation.id}
              environment={environment}
              rotation={rotation}
              headingId={rotationHeadingId(id, rotation.id)}
              newTokenRevoked={revokedTokens.has(rotation.result.user_group.token)}
              onClose={() => setRotations((current) => current.filter((item) => item.id !== rotation.id))}
            />
          ))}
        </CardContent>
      </Card>

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        onCloseAutoFocus={(event) => {
          const target = focusAfterDialog.current ? document.getElementById(focusAfterDialog.current) : null;
          focusAfterDialog.current = null;
          if (target) {
            event.preventDefault();
            target.focus();
          }
        }}
        title={`Rotate this token in ${environmentPhrase(environment)}?`}
        description="A new token is issued and the current one stops working at once. Anything still using it, such as an embedded dashboard, fails until it is given the new token. The group that holds it is named once it is rotated: only the service knows which one it is."
        confirmLabel="Rotate"
        destructive
        typeToConfirm={typeToConfirm}
        pending={rotate.isPending}
        onConfirm={() => {
          if (confirming) rotate.mutate(confirming);
        }}
      />
    </section>
  );
}

function rotationHeadingId(sectionId: string, rotationId: number): string {
  return `${sectionId}-rotation-${rotationId}`;
}
