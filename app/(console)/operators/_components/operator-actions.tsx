'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { formErrorMessage } from '@/components/form-errors';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
} from '@/components/ui/dialog';
import type { OperatorSummary, UpdateOperatorRequest } from '@/lib/auth/operators.schema';
import { type Role, roles } from '@/lib/auth/roles';
import { operatorsApi } from './operators-api';

/** Change one operator's role, or disable / enable them. */
export function OperatorActions({ operator }: { operator: OperatorSummary }) {
  const router = useRouter();
  const [role, setRole] = useState<Role>(operator.role ?? 'viewer');
  const [confirming, setConfirming] = useState(false);
  const update = useMutation({
    mutationFn: (change: UpdateOperatorRequest) => operatorsApi.update(operator.id, change),
    onSuccess: () => {
      setConfirming(false);
      router.refresh();
    },
  });

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <label className="sr-only" htmlFor={`role-${operator.id}`}>
          Role of {operator.email}
        </label>
        <select
          id={`role-${operator.id}`}
          value={role}
          onChange={(event) => setRole(event.target.value as Role)}
          className="h-8 rounded-md border border-input bg-card px-2 text-xs"
        >
          {roles.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
        <Button
          size="sm"
          variant="outline"
          disabled={update.isPending || role === operator.role}
          onClick={() => update.mutate({ role })}
        >
          Change role
        </Button>
        {operator.disabled ? (
          <Button
            size="sm"
            variant="outline"
            disabled={update.isPending}
            onClick={() => update.mutate({ disabled: false })}
          >
            Enable
          </Button>
        ) : (
          <Button
            size="sm"
            variant="destructive"
            disabled={update.isPending}
            onClick={() => setConfirming(true)}
          >
            Disable
          </Button>
        )}
      </div>
      {update.isError ? (
        <p role="alert" className="text-xs font-medium text-destructive">
          {formErrorMessage(update.error)}
        </p>
      ) : null}
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogTitle>Disable {operator.email}?</DialogTitle>
          <DialogDescription>
            Their sessions end now and they cannot sign in until an admin enables them again.
          </DialogDescription>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button
              variant="destructive"
              disabled={update.isPending}
              onClick={() => update.mutate({ disabled: true })}
            >
              Disable operator
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
