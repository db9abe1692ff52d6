import { describe, expect, it } from 'vitest';
import { ConsoleApiError } from '@/lib/browser-client/console-client';
import {
  absenceMessage,
  deleteGroupLabel,
  initialTokenPanelState,
  rotateTokenLabel,
  showTokenLabel,
  type TokenPanelEvent,
  type TokenPanelState,
  tokenActionsOffered,
  tokenConfirmation,
  tokenPanelFailure,
  tokenPanelReducer,
  tokenPanelStep,
} from './token-panel-state';

const stateAfter = (...events: TokenPanelEvent[]): TokenPanelState =>
  events.reduce(tokenPanelReducer, initialTokenPanelState);

const shown: TokenPanelEvent = { type: 'shown', token: 'old-token' };
const rotated: TokenPanelEvent = { type: 'rotated', oldToken: 'old-token', newToken: 'new-token' };
const group = { userGroupId: 'acme', environment: 'Customer' } as const;
const both = { mayRotate: true, mayDelete: true };

describe('the token panel’s steps', () => {
  it('starts at Show token, with nothing offered beside it', () => {
    expect(tokenPanelStep(initialTokenPanelState, false)).toBe('show');
    expect(tokenActionsOffered(initialTokenPanelState, both)).toEqual({ rotate: false, delete: false });
  });

  it('shows the token, with Rotate and Delete for a role that may', () => {
    const state = stateAfter(shown);
    expect(state.token).toBe('old-token');
    expect(tokenPanelStep(state, false)).toBe('token');
    expect(tokenActionsOffered(state, both)).toEqual({ rotate: true, delete: true });
    expect(tokenActionsOffered(state, { mayRotate: false, mayDelete: true })).toEqual({
      rotate: false,
      delete: true,
    });
    expect(tokenActionsOffered(state, { mayRotate: true, mayDelete: false })).toEqual({
      rotate: true,
      delete: false,
    });
  });

  it('says the group is gone when Show token finds it deleted elsewhere', () => {
    expect(tokenPanelStep(stateAfter({ type: 'found-gone' }), false)).toBe('gone');
  });

  it('says the group is deleted when deleted here, or before the page loaded', () => {
    const state = stateAfter(shown, { type: 'deleted' });
    expect(state.token).toBeNull();
    expect(tokenPanelStep(state, false)).toBe('deleted');
    expect(tokenPanelStep(initialTokenPanelState, true)).toBe('deleted');
    expect(tokenPanelStep(stateAfter(shown), true)).toBe('deleted');
  });

  it('keeps a rotation’s new and old tokens on screen, offering neither Rotate nor Delete', () => {
    const state = stateAfter(shown, rotated);
    expect(state.token).toBe('new-token');
    expect(state.rotated).toEqual({ oldToken: 'old-token', newToken: 'new-token', copied: false });
    expect(tokenPanelStep(state, false)).toBe('rotated');
    expect(tokenActionsOffered(state, both)).toEqual({ rotate: false, delete: false });
  });

  it('closes a copied rotation at Done, back to the token with its actions', () => {
    const copied = stateAfter(shown, rotated, { type: 'new-token-copied' });
    expect(copied.rotated?.copied).toBe(true);
    const done = tokenPanelReducer(copied, { type: 'done' });
    expect(done.rotated).toBeNull();
    expect(done.closingUncopied).toBe(false);
    expect(tokenPanelStep(done, false)).toBe('token');
    expect(done.token).toBe('new-token');
    expect(tokenActionsOffered(done, both)).toEqual({ rotate: true, delete: true });
  });

  it('asks before closing a rotation whose new token was not copied', () => {
    const asking = stateAfter(shown, rotated, { type: 'done' });
    expect(asking.closingUncopied).toBe(true);
    expect(asking.rotated).not.toBeNull();

    const kept = tokenPanelReducer(asking, { type: 'keep-on-screen' });
    expect(kept.closingUncopied).toBe(false);
    expect(tokenPanelStep(kept, false)).toBe('rotated');

    const closed = tokenPanelReducer(asking, { type: 'close-without-copying' });
    expect(closed.rotated).toBeNull();
    expect(closed.closingUncopied).toBe(false);
    expect(tokenPanelStep(closed, false)).toBe('token');
  });

  it('copying while asked to close still leaves the question for Done to settle', () => {
    const state = stateAfter(shown, rotated, { type: 'done' }, { type: 'new-token-copied' });
    expect(state.rotated?.copied).toBe(true);
    expect(tokenPanelReducer(state, { type: 'done' }).rotated).toBeNull();
  });

  it('ignores Done and a copy when no rotation is on screen', () => {
    const state = stateAfter(shown);
    expect(tokenPanelReducer(state, { type: 'done' })).toBe(state);
    expect(tokenPanelReducer(state, { type: 'new-token-copied' })).toBe(state);
  });

  it('opens and closes one confirmation at a time', () => {
    expect(stateAfter(shown, { type: 'confirming', which: 'rotate' }).confirming).toBe('rotate');
    expect(stateAfter(shown, { type: 'confirming', which: 'delete' }).confirming).toBe('delete');
    expect(
      stateAfter(shown, { type: 'confirming', which: 'delete' }, { type: 'confirming', which: null })
        .confirming,
    ).toBeNull();
  });
});

describe('what the token panel says', () => {
  it('words a group gone or deleted', () => {
    expect(absenceMessage('gone', group)).toBe(
      'The user group acme no longer exists in Customer (production): it was deleted outside this console. Show token did not create it again, and there is no token to show.',
    );
    expect(absenceMessage('deleted', group)).toBe(
      'The user group acme was deleted from Customer: its token no longer works.',
    );
  });

  it('labels each button while its call runs', () => {
    expect([showTokenLabel(false), showTokenLabel(true)]).toEqual(['Show token', 'Fetching…']);
    expect([rotateTokenLabel(false), rotateTokenLabel(true)]).toEqual(['Rotate token', 'Rotating…']);
    expect([deleteGroupLabel(false), deleteGroupLabel(true)]).toEqual(['Delete user group', 'Deleting…']);
  });

  it('says nothing without a failure, and the console’s words for one', () => {
    expect(tokenPanelFailure({ show: null, rotate: null, remove: null })).toBeNull();
    const refused = new ConsoleApiError('forbidden', 'Your role cannot rotate tokens.');
    expect(tokenPanelFailure({ show: null, rotate: refused, remove: null })).toBe(
      'Your role cannot rotate tokens.',
    );
  });

  it('explains a Delete refused as not found: the token was rotated elsewhere', () => {
    const notFound = new ConsoleApiError('not_found', 'No such user group.');
    expect(tokenPanelFailure({ show: null, rotate: null, remove: notFound })).toBe(
      'This token no longer matches the group: it was rotated elsewhere. Reload the page and show the token again, then delete.',
    );
    // Not found from Show token is the service's own answer, not a stale token.
    expect(tokenPanelFailure({ show: notFound, rotate: null, remove: null })).toBe('No such user group.');
  });
});

describe('the token panel’s confirmations', () => {
  it('asks for the group’s id in Customer, and marks a rotation there destructive', () => {
    expect(tokenConfirmation('rotate', group)).toEqual({
      title: 'Rotate the token of acme in Customer (production)?',
      description:
        'The current token stops working at once, in Customer. Every system using it needs the new one.',
      confirmLabel: 'Rotate token',
      typeToConfirm: { kind: 'id', value: 'acme' },
      destructive: true,
    });
    expect(tokenConfirmation('delete', group)).toMatchObject({
      title: 'Delete acme from Customer (production)?',
      description: 'The group and its token are deleted from Customer. Its embedded dashboards stop working.',
      confirmLabel: 'Delete user group',
      typeToConfirm: { kind: 'id', value: 'acme' },
      destructive: true,
    });
  });

  it('asks for nothing typed outside Customer, where only a deletion is destructive', () => {
    const testing = { userGroupId: 'acme', environment: 'Testing' } as const;
    expect(tokenConfirmation('rotate', testing)).toMatchObject({ typeToConfirm: null, destructive: false });
    expect(tokenConfirmation('delete', testing)).toMatchObject({ typeToConfirm: null, destructive: true });
  });
});
