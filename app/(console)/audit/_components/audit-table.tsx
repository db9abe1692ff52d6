import { Badge } from '@/components/ui/badge';
import type { AuditEvent } from '@/lib/audit/store';

/** The audit rows as a table; wide, so it scrolls sideways on small screens. */
export function AuditTable({ events }: { events: AuditEvent[] }) {
  if (events.length === 0) {
    return <p className="text-sm text-muted-foreground">No audit entries match these filters.</p>;
  }
  return (
    <section
      className="overflow-x-auto rounded-lg border border-border"
      aria-label="Audit log entries"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable from the keyboard (axe scrollable-region-focusable)
      tabIndex={0}
    >
      <table className="w-full min-w-[56rem] text-left text-sm">
        <thead className="bg-muted text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Time (UTC)
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Operator
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Action
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              User group
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Outcome
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Token
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Request
            </th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.id} className="border-t border-border align-top" data-testid="audit-row">
              <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">
                {event.at.replace('T', ' ').slice(0, 19)}
              </td>
              <td className="px-3 py-2 wrap-anywhere">{event.operator_email ?? <Muted>unknown</Muted>}</td>
              <td className="px-3 py-2 whitespace-nowrap">
                {event.action}
                {event.detail ? (
                  <div className="text-xs text-muted-foreground wrap-anywhere">{event.detail}</div>
                ) : null}
              </td>
              <td className="px-3 py-2 wrap-anywhere">
                {event.user_group_id ? (
                  <code className="font-mono text-xs">{event.user_group_id}</code>
                ) : (
                  <Muted>—</Muted>
                )}
                {event.user_group_name ? (
                  <div className="text-xs text-muted-foreground">{event.user_group_name}</div>
                ) : null}
                {event.environment ? (
                  <div className="text-xs text-muted-foreground">in {event.environment}</div>
                ) : null}
              </td>
              <td className="px-3 py-2">
                <Badge variant={event.outcome === 'success' ? 'success' : 'danger'}>{event.outcome}</Badge>
              </td>
              <td className="px-3 py-2 font-mono text-xs">
                {event.token_fingerprint ?? ''}
                {event.previous_token_fingerprint ? (
                  <div className="text-muted-foreground" title="Fingerprint of the token presented">
                    was {event.previous_token_fingerprint}
                  </div>
                ) : null}
              </td>
              <td className="px-3 py-2 font-mono text-xs text-muted-foreground">
                {event.request_id.slice(0, 8)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Muted({ children }: { children: React.ReactNode }) {
  return <span className="text-muted-foreground">{children}</span>;
}
