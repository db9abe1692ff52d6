import { handleAuthRequest } from '@/lib/auth/auth-route';

// better-auth's sign-in, SSO callback, session and sign-out endpoints, behind an allow-list.
export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
