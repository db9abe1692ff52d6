'use client';

import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from './ui/button';
import { readableId } from './ui/identifier';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * A group's id, whole (wrapped on a phone, never cut) with a Copy button beside it: the id is what a
 * support person pastes into a ticket, and on a phone selecting 60 characters by hand is a chore.
 * The outcome is said on the button and in a live region; when the clipboard is refused the id is
 * selected for Ctrl+C.
 */
export function CopyableId({ value }: { value: string }) {
  const [state, setState] = useState<CopyState>('idle');
  const [code, setCode] = useState<HTMLElement | null>(null);

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), state === 'copied' ? 2000 : 8000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      if (code) window.getSelection()?.selectAllChildren(code);
      setState('failed');
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <code ref={setCode} data-testid="group-id" className={`${readableId} font-mono text-[13px]`}>
        {value}
      </code>
      <Button variant="outline" size="sm" onClick={() => void copy()}>
        {state === 'copied' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
        {state === 'copied' ? 'Copied' : 'Copy ID'}
      </Button>
      <span role="status" className="text-xs text-muted-foreground empty:hidden">
        {state === 'copied' ? 'ID copied to the clipboard.' : ''}
        {state === 'failed' ? 'Could not copy: the ID is selected, press Ctrl+C (⌘C on a Mac).' : ''}
      </span>
    </div>
  );
}
