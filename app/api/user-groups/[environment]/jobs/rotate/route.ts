import { draftRotateJobRoute } from '@/lib/jobs/handlers';

export const POST = draftRotateJobRoute;
