/**
 * A dynamic route segment as Next hands it to a page: still percent-encoded. decodeURIComponent
 * throws a URIError on a malformed escape (`/customer/groups/%E0%A4%A`), which a page would answer
 * with a 500; this answers null instead, for the page to answer 404 (`decodeParam(id) ?? notFound()`).
 */
export function decodeParam(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch (error) {
    if (error instanceof URIError) return null;
    throw error;
  }
}
