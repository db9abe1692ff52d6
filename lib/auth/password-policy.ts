// Moved to lib/limits.ts; kept until the client-side branch that imports it from here is merged.
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '@/lib/limits';
