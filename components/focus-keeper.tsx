'use client';

import { useEffect } from 'react';
import { landingPending } from './landing-focus';

/**
 * The console's rule for focus (#43, item 3): after an action the focus goes to its result, never to
 * the page's body, where a keyboard or screen reader user starts again from the top. Pages and
 * components place it themselves where they know better (a dialog's opener, a rotated token, the
 * palette's landing); this is the net under them. When the focused element goes away (the button
 * of a step that is over, a form that a new search replaced, the link of a page left) and the focus
 * falls to the body, it moves to the result, in this order:
 *   1. the first error (`[role="alert"]`) in the page's main,
 *   2. what the page marks as an action's result (`[data-focus-result]`: a status line, a count),
 *   3. a status line that says something (`[role="status"]`),
 *   4. the page's heading (`main h1`).
 * A page that is still arriving (a navigation, streamed) is waited for, a few frames at a time.
 */
const WAIT_FRAMES = 120;

function visible(element: HTMLElement): boolean {
  return element.getClientRects().length > 0 && (element.textContent ?? '').trim() !== '';
}

function resultTarget(): HTMLElement | null {
  const main = document.querySelector('main');
  if (!main) return null;
  for (const selector of ['[role="alert"]', '[data-focus-result]', '[role="status"]', 'h1']) {
    const found = [...main.querySelectorAll<HTMLElement>(selector)].find(visible);
    if (found) return found;
  }
  return null;
}

/** What this net focused last: a component's own target still wins over it (focusIsUnplaced). */
let rescued: Element | null = null;

function focusResult(target: HTMLElement): void {
  if (!target.matches('a[href], button, input, select, textarea, [tabindex]')) target.tabIndex = -1;
  target.focus({ preventScroll: false });
  rescued = target;
}

/**
 * Whether nothing placed the focus on purpose: it is on the body, or where this net put it. A
 * component that knows its action's result (useRefocusWhenDropped) moves it then.
 */
export function focusIsUnplaced(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || (rescued !== null && active === rescued);
}

/** A navigation asked to land on its result (a filter applied): the URL it left. */
let arrivalFrom: string | null = null;

/**
 * Called by an action that navigates within the console (the audit filters' Apply) with where it
 * goes: once the address has changed and the new page is shown, the focus goes to its result
 * (above), whatever had it; the control that was pressed may well still be there, but what happened
 * is elsewhere. Going to the address already shown (Apply with the filters unchanged) changes no
 * address: the result shown is the answer, and the focus goes to it at once.
 */
export function focusResultOnArrival(destination: string): void {
  const leaving = window.location.href;
  const sameAddress = new URL(destination, leaving).href === leaving;
  arrivalFrom = leaving;
  let frames = 0;
  const land = () => {
    if (arrivalFrom === null) return;
    const target = sameAddress || window.location.href !== arrivalFrom ? resultTarget() : null;
    if (target) {
      arrivalFrom = null;
      focusResult(target);
    } else if (++frames < WAIT_FRAMES * 5) requestAnimationFrame(land);
    else arrivalFrom = null;
  };
  requestAnimationFrame(land);
}

export function FocusKeeper() {
  useEffect(() => {
    let lastFocused: Element | null = document.activeElement;
    let frame = 0;
    let frames = 0;

    const dropped = () =>
      (document.activeElement === document.body || document.activeElement === null) &&
      lastFocused !== null &&
      !lastFocused.isConnected &&
      // Not while a dialog is open: it keeps its own focus (Radix returns it on close).
      !document.querySelector('[role="dialog"], [role="alertdialog"]') &&
      // Nor while a jump (the palette's Enter) lands on the new page's main action.
      !landingPending();

    const rescue = () => {
      frame = 0;
      if (!dropped()) return;
      const target = resultTarget();
      if (target) {
        focusResult(target);
        lastFocused = target;
        return;
      }
      if (++frames < WAIT_FRAMES) frame = requestAnimationFrame(rescue);
    };

    const schedule = () => {
      if (frame || !dropped()) return;
      frames = 0;
      // Two frames later: what took the focus away may be about to place it itself (a dialog
      // closing, a component's effect focusing its answer), and it knows better than this net.
      frame = requestAnimationFrame(() => {
        frame = requestAnimationFrame(rescue);
      });
    };

    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Element) lastFocused = event.target;
    };
    // A click on nothing focusable puts the focus on the body on purpose: nothing to rescue later.
    const onPointerDown = () => {
      lastFocused = null;
    };
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true });
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('focusout', schedule);
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      observer.disconnect();
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('focusout', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
  return null;
}
