'use client';

import { Check, Copy, Eye, EyeOff } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { confirmedRemainingMs, ensureConfirmedRecently } from '@/lib/browser-client/step-up-prompt';
import {
  type CopyOutcomeKind,
  copyAnnouncement,
  copyAnnouncementVisible,
  copyFeedbackMs,
  hideAgainInMs,
} from './secret-field-state';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { cn } from './ui/cn';

const MASK = '•'.repeat(24);

type CopyOutcome = { kind: CopyOutcomeKind; at: number };

type SecretFieldProps = {
  /** The accessible name of the field, shown above it: "Token", "New token". */
  label: string;
  /** The label is only for screen readers: a heading right above already says it ("Token"). */
  labelHidden?: boolean;
  value: string;
  /** An old token: struck through, with a "No longer valid" badge, and nothing to copy. */
  revoked?: boolean;
  /** Called after the value reached the clipboard. */
  onCopied?: () => void;
  /**
   * A production token: revealing or copying it needs the session's recent authentication, as
   * showing it did. Once that window has passed, the person confirms first (the step-up dialog).
   */
  confirmFirst?: boolean;
  /** Shown from the start: a value meant to be read and passed on (an invitation link). */
  startRevealed?: boolean;
  className?: string;
};

/**
 * The one way a token is shown. Masked by default: while masked the token is not in the page at
 * all, only bullets. Reveal/Hide toggles it; Copy puts it on the clipboard and says so, on the
 * button for two seconds and in a live region; if the clipboard is refused, the token is revealed
 * and selected so it can be copied by hand.
 */
export function SecretField({
  label,
  labelHidden = false,
  value,
  revoked = false,
  onCopied,
  confirmFirst = false,
  startRevealed = false,
  className,
}: SecretFieldProps) {
  const labelId = useId();
  const valueRef = useRef<HTMLElement>(null);
  const [revealed, setRevealed] = useState(startRevealed);
  const [copyOutcome, setCopyOutcome] = useState<CopyOutcome | null>(null);
  const [selectWhenShown, setSelectWhenShown] = useState(false);
  const [shownValue, setShownValue] = useState(value);

  // A different secret starts masked again, with no stale feedback.
  if (shownValue !== value) {
    setShownValue(value);
    setRevealed(startRevealed);
    setCopyOutcome(null);
  }

  useEffect(() => {
    if (!copyOutcome) return;
    const timer = setTimeout(() => setCopyOutcome(null), copyFeedbackMs(copyOutcome.kind));
    return () => clearTimeout(timer);
  }, [copyOutcome]);

  // A production token revealed within the window hides again when the window closes.
  useEffect(() => {
    const hideIn = hideAgainInMs({ confirmFirst, revealed }, confirmedRemainingMs());
    if (hideIn === null) return;
    const timer = setTimeout(() => setRevealed(false), hideIn);
    return () => clearTimeout(timer);
  }, [confirmFirst, revealed]);

  useEffect(() => {
    if (!selectWhenShown || !revealed || !valueRef.current) return;
    const selection = window.getSelection();
    const range = document.createRange();
    range.selectNodeContents(valueRef.current);
    selection?.removeAllRanges();
    selection?.addRange(range);
    setSelectWhenShown(false);
  }, [selectWhenShown, revealed]);

  /** Within the window at once; after it, once confirmed; false when the person cancelled. */
  async function mayUse(): Promise<boolean> {
    if (!confirmFirst || (await ensureConfirmedRecently())) return true;
    setCopyOutcome({ kind: 'cancelled', at: Date.now() });
    return false;
  }

  async function reveal() {
    if (revealed) return setRevealed(false);
    if (await mayUse()) setRevealed(true);
  }

  async function copy() {
    if (!(await mayUse())) return;
    try {
      if (!navigator.clipboard) throw new Error('The clipboard is not available on this page.');
      await navigator.clipboard.writeText(value);
      setCopyOutcome({ kind: 'copied', at: Date.now() });
      onCopied?.();
    } catch {
      setRevealed(true);
      setSelectWhenShown(true);
      setCopyOutcome({ kind: 'failed', at: Date.now() });
    }
  }

  const outcome = copyOutcome?.kind ?? null;
  const copied = outcome === 'copied';

  return (
    <fieldset aria-labelledby={labelId} className={cn('flex min-w-0 flex-col gap-2', className)}>
      <div className="flex flex-wrap items-center gap-2">
        <span id={labelId} className={cn('text-sm font-medium', labelHidden && 'sr-only')}>
          {label}
        </span>
        {revoked ? <Badge variant="danger">No longer valid</Badge> : null}
      </div>
      <div className="flex flex-wrap items-start gap-2">
        <div
          className={cn(
            'min-h-9 min-w-0 flex-1 basis-full rounded-md border border-border bg-muted px-3 py-2 font-mono text-sm leading-5 sm:basis-0',
            revoked && 'text-muted-foreground line-through decoration-destructive/70',
          )}
        >
          {revealed ? (
            <code ref={valueRef} data-testid="secret-value" className="break-all">
              {value}
            </code>
          ) : (
            <>
              <span aria-hidden="true" className="tracking-widest break-all select-none">
                {MASK}
              </span>
              <span className="sr-only">Hidden</span>
            </>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={reveal}>
            {revealed ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            {revealed ? 'Hide' : 'Reveal'}
          </Button>
          {revoked ? null : (
            <Button variant="outline" onClick={copy} className="min-w-24">
              {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </div>
      </div>
      <p
        aria-live="polite"
        className={cn('text-xs', copyAnnouncementVisible(outcome) ? 'text-foreground' : 'sr-only')}
      >
        {copyAnnouncement(label, outcome)}
      </p>
    </fieldset>
  );
}
