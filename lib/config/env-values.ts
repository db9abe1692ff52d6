import { z } from 'zod';

/** What a section's variables read as, once parsed. */
export type ParsedEnv<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>>;

/** `''` (as .env files leave a variable) means unset. */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema.optional(),
  );

/** A whole number of milliseconds (or connections, or minutes) above zero, else the fallback. */
export const positiveInteger = (name: string, unit: string, fallback: number) =>
  optional(
    z.coerce
      .number({ error: `${name} must be a number of ${unit}` })
      .int({ error: `${name} must be a whole number of ${unit}` })
      .positive({ error: `${name} must be above zero` }),
  ).transform((value) => value ?? fallback);

export const httpUrl = (name: string) =>
  z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` });

/** The configuration cannot be used: its message names variables and rules, never values. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
