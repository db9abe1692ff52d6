import * as z from 'zod/mini';
import { tokenTextSchema } from './form-text.schema';

/** The rotate form as typed. */
export const rotateTokenFormSchema = z.object({ current_token: tokenTextSchema });

export type RotateTokenFormValues = z.input<typeof rotateTokenFormSchema>;

export const rotateTokenFormFields = ['current_token'] as const;
