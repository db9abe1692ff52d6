import { CircleCheck, CircleHelp, History, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';

/**
 * Whether a token works, at a glance: its own words, colour and icon, whatever the environment's
 * colour (red is Customer's, so "It works" and "It no longer works" no longer look alike there).
 * The identify page and a bulk rotation's preview say it with the same badge.
 */
const standingBadges = {
  current: { label: 'Current', variant: 'success', Icon: CircleCheck },
  replaced: { label: 'Replaced', variant: 'neutral', Icon: History },
  superseded: { label: 'Replaced', variant: 'neutral', Icon: History },
  deleted: { label: 'Deleted', variant: 'neutral', Icon: Trash2 },
  unknown: { label: 'Unknown', variant: 'info', Icon: CircleHelp },
  // Pasted text that no token could be (too short, spaces): a mistake in the copy, not a stranger's token.
  'not-a-token': { label: 'Not a token', variant: 'info', Icon: CircleHelp },
} as const;

export type TokenStanding = keyof typeof standingBadges;

export function StandingBadge({ standing }: { standing: TokenStanding }) {
  const { label, variant, Icon } = standingBadges[standing];
  return (
    <Badge variant={variant} className="inline-flex items-center gap-1" data-testid="token-standing">
      <Icon aria-hidden="true" className="size-3.5" />
      {label}
    </Badge>
  );
}

/** A bulk row's problem that begins with a standing's word ("Replaced: …"): the badge and the rest. */
export function problemStanding(text: string): { standing: TokenStanding; rest: string } | null {
  const match = /^(Current|Replaced|Deleted|Unknown): (.*)$/s.exec(text);
  if (!match) return null;
  return { standing: (match[1] as string).toLowerCase() as TokenStanding, rest: match[2] as string };
}
