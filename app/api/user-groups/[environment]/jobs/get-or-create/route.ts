import { draftGetOrCreateJobRoute } from '@/lib/jobs/handlers';

export const POST = draftGetOrCreateJobRoute;
