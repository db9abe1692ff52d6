/**
 * The console's mark and name, as its header shows them (the console's layout and the 404 outside
 * it). `nameClassName`: the header keeps the name for screen readers only on a phone.
 */
export function ConsoleMark({ nameClassName = '' }: { nameClassName?: string }) {
  return (
    <>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-6 shrink-0">
        <rect width="32" height="32" rx="7" className="fill-primary" />
        <circle cx="12" cy="13" r="4" className="fill-primary-foreground" />
        <path d="M5.5 25c0-3.9 2.9-6.5 6.5-6.5s6.5 2.6 6.5 6.5" className="fill-primary-foreground" />
        <circle cx="21" cy="13" r="3" className="fill-muted-foreground" />
      </svg>
      <span className={`text-sm font-semibold tracking-tight ${nameClassName}`.trim()}>
        User Group Console
      </span>
    </>
  );
}
