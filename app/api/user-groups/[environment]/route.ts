import { directorySearchRoute } from '@/lib/directory/handlers';

export const GET = directorySearchRoute;
