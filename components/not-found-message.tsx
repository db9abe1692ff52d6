/** What a 404 says, in the console's page and outside it (app/not-found.tsx, app/(console)/not-found.tsx). */
export function NotFoundMessage() {
  return (
    <div className="flex max-w-md flex-col gap-3">
      <p className="text-sm font-medium text-muted-foreground">404</p>
      <h1 className="text-2xl font-semibold tracking-tight">There is no such page</h1>
      <p className="text-sm text-muted-foreground">
        The address may be mistyped or cut short, or what it named (a group’s page, a bulk job) is not in the
        console.
      </p>
      <p className="text-sm">
        {/* A plain link: next/link would add its client code to the empty page (the page budget's base). */}
        <a href="/" className="font-medium underline underline-offset-4">
          Back to the user groups
        </a>
      </p>
    </div>
  );
}
