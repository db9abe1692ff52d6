import { jobRowsRoute } from '@/lib/jobs/handlers';

export const GET = jobRowsRoute;
