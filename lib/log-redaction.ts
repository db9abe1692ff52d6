/**
 * Where a secret could sit in a log object, for pino's `redact`, shared by the console's and the
 * service's loggers. Log objects never carry secrets by construction; this is the second line of
 * defence should one slip in.
 */
const secretFields = ['authorization', 'cookie', 'token', 'current_token', 'key', 'apiKey', 'encryptionKey'];

export const logRedaction = {
  paths: [
    ...secretFields,
    ...secretFields.map((field) => `*.${field}`),
    'headers.authorization',
    'headers.cookie',
    'req.headers.authorization',
    'req.headers.cookie',
    'user_group.token',
  ],
  censor: '[redacted]',
};
