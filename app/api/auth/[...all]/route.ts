import { handleAuthRequest } from '@/lib/server/auth-route';

// better-auth's sign-in, SSO callback and sign-out endpoints, behind an allow-list.
export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
