'use client';

import { Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

/** Ten backup codes, shown once: each signs in (or confirms it is you) once, when the app is lost. */
export function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section aria-label="Backup codes" className="flex flex-col gap-3">
      <p className="text-sm">
        Save these backup codes somewhere safe (a password manager). They are shown only now; each works once,
        when your phone is not at hand.
      </p>
      <ul className="grid max-w-sm grid-cols-2 gap-x-6 gap-y-1 rounded-md border border-border bg-muted p-3 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          onClick={() =>
            navigator.clipboard.writeText(codes.join('\n')).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          <Copy aria-hidden="true" />
          {copied ? 'Copied' : 'Copy the codes'}
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </section>
  );
}
