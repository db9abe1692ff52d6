'use client';

import { useEffect, useRef } from 'react';

/** The rows' checkboxes of the form this one is in (named `rotate`, one per group on the page). */
export function rowCheckboxes(form: HTMLFormElement | null): HTMLInputElement[] {
  if (!form) return [];
  return [...form.querySelectorAll<HTMLInputElement>('input[type="checkbox"][name="rotate"]')];
}

/**
 * The directory's header checkbox: ticks or clears every group on this page; checked when all are,
 * mixed (indeterminate) when some are. It follows the rows through the form's change events, and
 * sends one when it changes them, so the selection's other parts (Rotate selected) follow too.
 */
export function SelectAllOnPage() {
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const form = box.current?.form ?? null;
    if (!form) return;
    const follow = () => {
      const rows = rowCheckboxes(form);
      const ticked = rows.filter((row) => row.checked).length;
      if (!box.current) return;
      // A page without groups has nothing to select.
      box.current.disabled = rows.length === 0;
      box.current.checked = rows.length > 0 && ticked === rows.length;
      box.current.indeterminate = ticked > 0 && ticked < rows.length;
    };
    follow();
    form.addEventListener('change', follow);
    return () => form.removeEventListener('change', follow);
  }, []);
  return (
    <input
      ref={box}
      type="checkbox"
      aria-label="Select all on this page"
      // The base styles take the outline off inputs (text fields draw their own ring): a checkbox
      // brings its own back.
      className="size-4 accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      onChange={(event) => {
        const { form, checked } = event.currentTarget;
        for (const row of rowCheckboxes(form)) row.checked = checked;
        form?.dispatchEvent(new Event('change', { bubbles: true }));
      }}
    />
  );
}
