// Moved to lib/roles.ts; kept until the client-side branch that imports it from here is merged.
export * from '@/lib/roles';
