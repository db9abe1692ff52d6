import { jobPreviewRoute } from '@/lib/jobs/handlers';

export const GET = jobPreviewRoute;
