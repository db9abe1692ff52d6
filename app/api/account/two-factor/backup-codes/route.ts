import { newBackupCodesRoute } from '@/lib/two-factor/handlers';

export const POST = newBackupCodesRoute;
