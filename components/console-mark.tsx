/** The console's mark and name, as its header shows them (app/(console)/layout.tsx draws the same). */
export function ConsoleMark() {
  return (
    <>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-6 shrink-0">
        <rect width="32" height="32" rx="7" className="fill-primary" />
        <circle cx="12" cy="13" r="4" className="fill-primary-foreground" />
        <path d="M5.5 25c0-3.9 2.9-6.5 6.5-6.5s6.5 2.6 6.5 6.5" className="fill-primary-foreground" />
        <circle cx="21" cy="13" r="3" className="fill-muted-foreground" />
      </svg>
      <span className="text-sm font-semibold tracking-tight">User Group Console</span>
    </>
  );
}
