import 'server-only';

// The answer stage of the one frame (lib/server/frame/answer.ts), under the name the public
// invitation routes (lib/invitations/server.ts) still call it by until they take the frame itself.
export { answerRequest as handleRequest } from './frame/answer';
