import { describe, expect, it } from 'vitest';
import { describePauseReason, pauseReasons } from './pause-reasons';

describe('pause reasons', () => {
  it('puts each reason into words that name the environment and what to do, never the code', () => {
    for (const reason of pauseReasons) {
      const words = describePauseReason(reason, 'Customer') as string;
      expect(words, reason).toContain('Customer');
      expect(words, reason).toMatch(/resume the job/);
      expect(words, reason).not.toContain(reason);
    }
    expect(describePauseReason('api_key_refused', 'Testing')).toMatch(/refused.*USER_GROUP_API_KEY_TESTING/);
    expect(describePauseReason('environment_not_configured', 'Customer')).toMatch(
      /no API key for Customer \(USER_GROUP_API_KEY_CUSTOMER\)/,
    );
  });

  it('has no words for a job a person paused, and sends a reason it does not know to the log unsaid', () => {
    expect(describePauseReason(null, 'Testing')).toBeNull();
    const words = describePauseReason('Invalid URL: http://[', 'Testing');
    expect(words).toMatch(/log/);
    expect(words).not.toContain('Invalid URL');
  });
});
