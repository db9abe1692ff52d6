/**
 * The token panel's steps as pure functions: what the person has done (shown, rotated, copied,
 * deleted, asked to close), which step that puts them at, what is offered there and what it says.
 * The panel (token-panel.tsx) only renders them and sends the calls.
 */
import type { TypeToConfirm } from '@/components/confirm-dialog.utils';
import { formErrorMessage } from '@/components/form-errors';
import { ConsoleApiError } from '@/lib/browser-client/console-client';
import { type Environment, environmentPhrase } from '@/lib/environments';

/** A rotation whose new token is still on screen: it stays until copied or closing is confirmed. */
type Rotated = { oldToken: string; newToken: string; copied: boolean };

/** Why there is no token: deleted here and now, or found gone by Show token. */
type Absence = 'deleted-now' | 'gone' | null;

export type TokenConfirmation = 'rotate' | 'delete';

export type TokenPanelState = {
  token: string | null;
  rotated: Rotated | null;
  confirming: TokenConfirmation | null;
  /** Done was pressed before the new token was copied: the panel asks whether to close anyway. */
  closingUncopied: boolean;
  absence: Absence;
};

export const initialTokenPanelState: TokenPanelState = {
  token: null,
  rotated: null,
  confirming: null,
  closingUncopied: false,
  absence: null,
};

export type TokenPanelEvent =
  | { type: 'shown'; token: string }
  | { type: 'found-gone' }
  | { type: 'rotated'; oldToken: string; newToken: string }
  | { type: 'deleted' }
  | { type: 'confirming'; which: TokenConfirmation | null }
  | { type: 'new-token-copied' }
  /** Done: closes a copied rotation, and asks first about one not copied. */
  | { type: 'done' }
  | { type: 'close-without-copying' }
  | { type: 'keep-on-screen' };

const closedRotation = (state: TokenPanelState): TokenPanelState => ({
  ...state,
  rotated: null,
  closingUncopied: false,
});

export function tokenPanelReducer(state: TokenPanelState, event: TokenPanelEvent): TokenPanelState {
  switch (event.type) {
    case 'shown':
      return { ...state, token: event.token };
    case 'found-gone':
      return { ...state, absence: 'gone' };
    case 'rotated':
      return {
        ...state,
        token: event.newToken,
        rotated: { oldToken: event.oldToken, newToken: event.newToken, copied: false },
      };
    case 'deleted':
      return { ...state, absence: 'deleted-now', token: null };
    case 'confirming':
      return { ...state, confirming: event.which };
    case 'new-token-copied':
      return state.rotated ? { ...state, rotated: { ...state.rotated, copied: true } } : state;
    case 'done':
      if (!state.rotated) return state;
      return state.rotated.copied ? closedRotation(state) : { ...state, closingUncopied: true };
    case 'close-without-copying':
      return closedRotation(state);
    case 'keep-on-screen':
      return { ...state, closingUncopied: false };
  }
}

/**
 * Where the person is: the group gone (found by Show token), deleted (here, or before the page
 * loaded), a rotation's new and old tokens, the token, or the Show token button.
 */
export type TokenPanelStep = 'gone' | 'deleted' | 'rotated' | 'token' | 'show';

export function tokenPanelStep(state: TokenPanelState, deletedBefore: boolean): TokenPanelStep {
  if (state.absence === 'gone') return 'gone';
  if (state.absence === 'deleted-now' || deletedBefore) return 'deleted';
  if (state.rotated) return 'rotated';
  return state.token ? 'token' : 'show';
}

/** Rotate and Delete are offered beside a shown token only, and each only to a role that may. */
export function tokenActionsOffered(
  state: TokenPanelState,
  may: { mayRotate: boolean; mayDelete: boolean },
): { rotate: boolean; delete: boolean } {
  const beside = state.token !== null && state.rotated === null;
  return { rotate: beside && may.mayRotate, delete: beside && may.mayDelete };
}

/** What the panel says instead of a token: the group found gone, or deleted. */
export function absenceMessage(
  absence: 'gone' | 'deleted',
  { userGroupId, environment }: { userGroupId: string; environment: Environment },
): string {
  return absence === 'gone'
    ? `The user group ${userGroupId} no longer exists in ${environmentPhrase(environment)}: it was deleted outside this console. Show token did not create it again, and there is no token to show.`
    : `The user group ${userGroupId} was deleted from ${environment}: its token no longer works.`;
}

/** Each button's label while its call runs and otherwise. */
export const showTokenLabel = (pending: boolean) => (pending ? 'Fetching…' : 'Show token');
export const rotateTokenLabel = (pending: boolean) => (pending ? 'Rotating…' : 'Rotate token');
export const deleteGroupLabel = (pending: boolean) => (pending ? 'Deleting…' : 'Delete user group');

/**
 * What the alert under the panel says for the first failed call: a Delete refused as not found
 * means the token held here was rotated elsewhere.
 */
export function tokenPanelFailure(errors: {
  show: unknown;
  rotate: unknown;
  remove: unknown;
}): string | null {
  const failure = errors.show ?? errors.rotate ?? errors.remove;
  if (!failure) return null;
  if (errors.remove instanceof ConsoleApiError && errors.remove.code === 'not_found')
    return 'This token no longer matches the group: it was rotated elsewhere. Reload the page and show the token again, then delete.';
  return formErrorMessage(failure);
}

type ConfirmationWords = {
  title: string;
  description: string;
  confirmLabel: string;
  /** In Customer (production) the person types the group's id. */
  typeToConfirm: TypeToConfirm | null;
  destructive: boolean;
};

/** The Rotate and Delete confirmations: a rotation is destructive in Customer, a deletion always. */
export function tokenConfirmation(
  which: TokenConfirmation,
  { userGroupId, environment }: { userGroupId: string; environment: Environment },
): ConfirmationWords {
  const inCustomer = environment === 'Customer';
  const typeToConfirm = inCustomer ? ({ kind: 'id', value: userGroupId } as const) : null;
  const where = environmentPhrase(environment);
  return which === 'rotate'
    ? {
        title: `Rotate the token of ${userGroupId} in ${where}?`,
        description: `The current token stops working at once, in ${environment}. Every system using it needs the new one.`,
        confirmLabel: 'Rotate token',
        typeToConfirm,
        destructive: inCustomer,
      }
    : {
        title: `Delete ${userGroupId} from ${where}?`,
        description: `The group and its token are deleted from ${environment}. Its embedded dashboards stop working.`,
        confirmLabel: 'Delete user group',
        typeToConfirm,
        destructive: true,
      };
}
