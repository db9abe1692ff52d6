'use client';

import { cn } from '@/components/ui/cn';
import { environments } from '@/lib/environments';
import { useUpstreamStatus } from '../_hooks/use-upstream-status';
import { describeUpstream, lastChecked, type UpstreamTone } from './upstream-words';

const dot: Record<UpstreamTone | 'unknown', string> = {
  well: 'bg-green-600',
  limited: 'bg-amber-500',
  trouble: 'bg-red-600',
  off: 'bg-zinc-400',
  unknown: 'bg-zinc-300',
};

/**
 * Next to the environment switcher: whether each environment's User Group Service answers, from
 * the console's probe (asked every 30 s). Not a live region: it changes every 30 s, and reading
 * it out each time would drown the page; trouble is also said where it matters (a form's error, a
 * waiting job).
 */
export function UpstreamStatus() {
  const { data } = useUpstreamStatus();
  const checked = data ? lastChecked(data.environments) : null;
  return (
    <div className="flex flex-wrap items-center justify-end gap-x-3 gap-y-0.5 text-xs">
      <ul aria-label="Service status" className="flex flex-wrap items-center gap-x-3 gap-y-0.5">
        {environments.map((environment) => {
          const status = data?.environments.find((each) => each.environment === environment);
          const described = status ? describeUpstream(status) : null;
          const tone = described?.tone ?? 'unknown';
          return (
            <li
              key={environment}
              data-testid="upstream-status"
              title={described?.text}
              className={cn(
                'flex items-center gap-1.5',
                tone === 'trouble' ? 'font-medium text-foreground' : 'text-muted-foreground',
              )}
            >
              <span aria-hidden="true" className={cn('size-2 shrink-0 rounded-full', dot[tone])} />
              {/* On a phone only trouble is in words; a service that answers is its dot. */}
              <span className={tone === 'trouble' ? undefined : 'sr-only sm:not-sr-only'}>
                {described?.text ?? `${environment}: checking…`}
              </span>
            </li>
          );
        })}
      </ul>
      {checked ? (
        <span className="hidden text-muted-foreground sm:inline" data-testid="upstream-checked">
          {checked}
        </span>
      ) : null}
    </div>
  );
}
