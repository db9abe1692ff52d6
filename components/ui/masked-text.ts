/**
 * Draws a field's characters as dots: a password field's look without its password manager (a
 * pasted token is a secret on screen until Identify names it, and never saved as a password).
 */
export const maskedText = '[-webkit-text-security:disc]';
