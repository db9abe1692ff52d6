/**
 * A token typed into a search field travels to the Identify form in memory, never through the URL
 * (where it would reach the address bar, the history and the server's logs): the field hands it
 * over and navigates; the form takes it once. A module of the browser's page, so it lives as long
 * as the app's JavaScript does (client-side navigations keep it; a reload clears it).
 */
let handedOver: string | null = null;

export function handOverToken(token: string): void {
  handedOver = token.trim();
}

/** The token handed over, once: a second call answers null. */
export function takeHandedOverToken(): string | null {
  const token = handedOver;
  handedOver = null;
  return token;
}
