import { readJobRoute, steerJobRoute } from '@/lib/jobs/handlers';

export const GET = readJobRoute;
export const POST = steerJobRoute;
