'use client';

import { useEffect, useRef } from 'react';
import { focusIsUnplaced } from './focus-keeper';

/**
 * When `value` changes (not when the page opens) and the control that changed it went away with
 * the focus, which then fell to the page's body (or to where the console's net caught it), the focus moves to `target()`: the answer, or what
 * is offered next, instead of the top of the page. At first render nothing moves: a page that took
 * the focus on opening scrolled its own heading out of view (a cold walk, round 3).
 */
export function useRefocusWhenDropped(value: unknown, target: () => HTMLElement | null | undefined): void {
  const shown = useRef(value);
  const targetRef = useRef(target);
  targetRef.current = target;
  useEffect(() => {
    if (Object.is(shown.current, value)) return;
    shown.current = value;
    // On the body, or where the console's net (focus-keeper.tsx) put it meanwhile: this knows better.
    if (value && focusIsUnplaced()) targetRef.current()?.focus();
  }, [value]);
}
