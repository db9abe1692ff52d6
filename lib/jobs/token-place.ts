/**
 * The place a row's secret is sealed under (lib/jobs/vault.ts binds a ciphertext to it): the row
 * itself, so a ciphertext copied to another row or job does not open. Drafts seal pasted tokens
 * with it, the runner and the results open them.
 */
export const tokenPlace = (jobId: string, rowNumber: number, what: 'input' | 'result') =>
  `${jobId}/${rowNumber}/${what}`;
