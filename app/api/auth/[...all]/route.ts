import { authRoute } from '@/lib/auth/proxy/route';
import { consoleServer } from '@/lib/server';

// better-auth's sign-in, SSO callback and sign-out endpoints, behind an allow-list.
const handleAuthRequest = authRoute(consoleServer);
export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
