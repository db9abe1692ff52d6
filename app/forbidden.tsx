/**
 * What `forbidden()` renders (HTTP 403): the operator is signed in, their role may not open this page.
 * Only the console's pages call it (lib/server/page-context.ts), and Next renders it inside their
 * layout, whose `<main>` holds it: a `<main>` here was a second one inside the first.
 */
export default function Forbidden() {
  return (
    <div className="mx-auto flex min-h-[50dvh] max-w-md flex-col justify-center gap-3 px-4 py-10">
      <p className="text-sm font-medium text-muted-foreground">403</p>
      <h1 className="text-2xl font-semibold tracking-tight">Your role may not open this page</h1>
      <p className="text-sm text-muted-foreground">
        Ask an admin of the console for another role if you need it.
      </p>
      <p className="text-sm">
        {/* A plain link (a full load): next/link's code would weigh on the empty page, which loads this boundary. */}
        <a href="/" className="underline">
          Back to the console
        </a>
      </p>
    </div>
  );
}
