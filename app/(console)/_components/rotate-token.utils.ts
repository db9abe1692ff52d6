import type { RotateRequest } from '@/lib/user-group-api/contract';
import type { RotateTokenFormValues } from './rotate-token.schema';

/** Form values to the request body: the token without the spaces a paste may bring. */
export function toRotateRequest(values: RotateTokenFormValues): RotateRequest {
  return { current_token: values.current_token.trim() };
}
