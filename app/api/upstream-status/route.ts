import { upstreamStatusRoute } from '@/lib/upstream-status/handlers';

export const GET = upstreamStatusRoute;
