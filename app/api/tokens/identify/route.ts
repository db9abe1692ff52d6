import { identifyTokenRoute } from '@/lib/tokens/handlers';

export const POST = identifyTokenRoute;
