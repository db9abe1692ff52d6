import { consoleServer } from '@/lib/server';
import { authRoute } from '@/lib/server/auth-route';

// better-auth's sign-in, SSO callback and sign-out endpoints, behind an allow-list.
const handleAuthRequest = authRoute(consoleServer);
export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
