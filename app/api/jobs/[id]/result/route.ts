import { jobResultRoute } from '@/lib/jobs/handlers';

export const GET = jobResultRoute;
