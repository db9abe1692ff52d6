'use client';

import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { Environment } from '@/lib/environments';
import { MAX_CSV_MB, SEND_UNKNOWN_LABEL } from '@/lib/jobs/contract';
import { useCreateGetOrCreateJob, useCreateRotateJob } from '../_hooks/use-create-job';
import { errorMessage, readChosenFile } from './chosen-file';

type NewJobFormsProps = {
  environment: Environment;
  mayGetOrCreate: boolean;
  mayRotate: boolean;
};

const fileInputClass =
  'text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-muted file:px-3 file:py-1.5 file:text-sm';

/** The two ways to start bulk work: a CSV of groups to get or create, and tokens to rotate. */
export function NewJobForms({ environment, mayGetOrCreate, mayRotate }: NewJobFormsProps) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {mayGetOrCreate ? <CsvJobForm environment={environment} /> : null}
      {mayRotate ? <RotateJobForm environment={environment} /> : null}
    </div>
  );
}

function CsvJobForm({ environment }: { environment: Environment }) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const upload = useCreateGetOrCreateJob(environment);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Get or create groups from a CSV</CardTitle>
        <CardDescription>
          Columns <code className="font-mono">user_group_id</code> (required),{' '}
          <code className="font-mono">name</code>, <code className="font-mono">mapping</code> and{' '}
          <code className="font-mono">properties</code> (JSON objects). Up to 10,000 rows or {MAX_CSV_MB} MB.
          Every row is checked first; nothing is sent until you run the job. Existing groups are returned
          unchanged.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (file) upload.mutate(async () => ({ source: file.name, csv: await readChosenFile(file) }));
          }}
        >
          <label htmlFor={fileId} className="text-sm font-medium">
            CSV file
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            className={fileInputClass}
            onChange={(event) => {
              upload.reset();
              setFile(event.target.files?.[0] ?? null);
            }}
          />
          {upload.isError ? (
            <Alert variant="error" role="alert">
              {errorMessage(upload.error)}
            </Alert>
          ) : null}
          <div>
            <Button type="submit" disabled={!file || upload.isPending}>
              {upload.isPending ? 'Checking…' : 'Check the file'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function RotateJobForm({ environment }: { environment: Environment }) {
  const listId = useId();
  const fileId = useId();
  const [tokens, setTokens] = useState('');
  const [revealed, setRevealed] = useState(false);
  const [sendUnknown, setSendUnknown] = useState(false);
  const create = useCreateRotateJob(environment);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Rotate many tokens</CardTitle>
        <CardDescription>
          After a leak: paste the tokens (one per line) or upload a file of them (a CSV needs a{' '}
          <code className="font-mono">token</code> column). Each gets a new token; the old ones stop working.
          The tokens are checked first, and nothing is sent until you run the job: a token that is no longer
          its group’s current one is left out, and so is one the console has never seen, unless you choose to
          send it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-col gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate(async () => ({ source: 'pasted tokens', tokens, sendUnknown }));
          }}
        >
          <div className="flex items-center justify-between gap-2">
            <label htmlFor={listId} className="text-sm font-medium">
              Tokens to rotate
            </label>
            <Button
              type="button"
              variant="outline"
              size="sm"
              aria-pressed={revealed}
              onClick={() => setRevealed(!revealed)}
            >
              {revealed ? 'Hide' : 'Reveal'}
            </Button>
          </div>
          <textarea
            id={listId}
            value={tokens}
            onChange={(event) => {
              create.reset();
              setTokens(event.target.value);
            }}
            rows={6}
            autoComplete="off"
            autoCorrect="off"
            autoCapitalize="off"
            spellCheck={false}
            data-1p-ignore
            data-lpignore="true"
            // Masked like a password field until Reveal is pressed: tokens are secrets.
            className={`rounded-md border border-input bg-background px-3 py-2 font-mono text-sm focus-visible:outline-2 focus-visible:outline-ring ${revealed ? '' : '[-webkit-text-security:disc]'}`}
          />
          <label htmlFor={fileId} className="text-sm font-medium">
            Or a file of tokens
          </label>
          <input
            id={fileId}
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            className={fileInputClass}
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              if (chosen)
                create.mutate(async () => ({
                  source: chosen.name,
                  tokens: await readChosenFile(chosen),
                  sendUnknown,
                  tokensFrom: 'file' as const,
                }));
            }}
          />
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 size-4"
              checked={sendUnknown}
              onChange={(event) => setSendUnknown(event.target.checked)}
            />
            <span>
              {SEND_UNKNOWN_LABEL}{' '}
              <span className="text-muted-foreground">
                (groups made outside the console: the service says whether each still works)
              </span>
            </span>
          </label>
          {create.isError ? (
            <Alert variant="error" role="alert">
              {errorMessage(create.error)}
            </Alert>
          ) : null}
          <div>
            <Button type="submit" disabled={tokens.trim() === '' || create.isPending}>
              {create.isPending ? 'Checking…' : 'Check the tokens'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
