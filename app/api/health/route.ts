/**
 * Liveness probe for load balancers and orchestrators: answers as long as the server process
 * serves requests. Deliberately no session, no database, no upstream call, so a slow dependency
 * does not get a healthy console taken out of rotation. Also the bare-route baseline of
 * `npm run bench -- console`.
 */
export function GET(): Response {
  return Response.json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
}
