'use client';

import { usePathname } from 'next/navigation';
import { useEffect } from 'react';

/**
 * Where focus goes when a jump lands on a page (the command palette's Enter): on the page's main
 * action (`data-main-action`: Show token on a group's page, the search on the directory), else its
 * heading, instead of the top of the page, 15 Tabs through the header away; a page that focuses
 * something of its own (the directory's search) keeps it. A jump asks for it with
 * `landOnMainAction()`; a link followed by hand leaves focus where the browser puts it.
 */
let landing = false;

export function landOnMainAction(): void {
  landing = true;
}

/** A jump is still landing: the focus keeper (focus-keeper.tsx) leaves the focus to it. */
export function landingPending(): boolean {
  return landing;
}

/** How long a landing waits for the new page to show its main action (streamed server pages). */
const WAIT_FRAMES = 120;

export function LandingFocus() {
  const pathname = usePathname();
  useEffect(() => {
    if (!landing || !pathname) return;
    let frames = 0;
    let frame = 0;
    const land = () => {
      // The page put focus in itself already (an autofocused search, an answer): it knows best.
      const main = document.querySelector('main');
      if (main && document.activeElement !== main && main.contains(document.activeElement)) {
        landing = false;
        return;
      }
      // The person opened a dialog meanwhile (the palette again): its field has the keys now, and
      // taking the focus from it lost the first ones typed.
      if (document.activeElement?.closest('[role="dialog"]')) {
        landing = false;
        return;
      }
      const target =
        document.querySelector<HTMLElement>('main [data-main-action]') ??
        (frames >= WAIT_FRAMES / 4 ? document.querySelector<HTMLElement>('main h1') : null);
      if (target) {
        landing = false;
        if (target.tagName === 'H1') target.tabIndex = -1;
        target.focus();
        return;
      }
      if (++frames < WAIT_FRAMES) frame = requestAnimationFrame(land);
      else landing = false;
    };
    frame = requestAnimationFrame(land);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
  return null;
}
