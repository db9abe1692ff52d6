/**
 * The interface's two environments. Ids are unique per environment (the same id may exist once in
 * each), and the console talks to each with its own API key. In URLs an environment is its slug.
 */
import type { Environment } from '@/lib/user-group-api/contract';

export type { Environment };
/**
 * The contract's `environmentSchema.options`, written out: client components read this module,
 * and importing the contract would bring zod into every page (environments.test.ts keeps them equal).
 */
export const environments: readonly Environment[] = ['Customer', 'Testing'];

export type EnvironmentSlug = 'customer' | 'testing';

export const slugOf: Record<Environment, EnvironmentSlug> = { Customer: 'customer', Testing: 'testing' };

export function environmentFromSlug(slug: string): Environment | null {
  return environments.find((environment) => slugOf[environment] === slug) ?? null;
}

/** How each environment presents itself, so Customer always looks like production. */
export const environmentLooks: Record<Environment, { label: string; kind: string; description: string }> = {
  Customer: {
    label: 'Customer',
    kind: 'production',
    description: 'Live customers: every change here reaches real embedded dashboards.',
  },
  Testing: {
    label: 'Testing',
    kind: 'sandbox',
    description: 'A sandbox for trying things out: changes here reach no customer.',
  },
};

/** An environment as dialogs name it, so production always says so: "Customer (production)". */
export function environmentPhrase(environment: Environment): string {
  const look = environmentLooks[environment];
  return `${look.label} (${look.kind})`;
}
