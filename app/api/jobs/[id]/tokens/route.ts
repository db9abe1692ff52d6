import { jobTokensRoute } from '@/lib/jobs/handlers';

export const POST = jobTokensRoute;
