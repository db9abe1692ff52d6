import { can } from '@/lib/roles';
import { requirePageOperator } from '@/lib/server/page-guard';
import { UserGroupConsole } from './_components/user-group-console';

/** The console's one page: a server component that renders the three client forms. */
export default async function ConsolePage() {
  const operator = await requirePageOperator('audit:read');
  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-col gap-1.5">
        <h1 className="text-2xl font-semibold tracking-tight">User groups</h1>
        <p className="text-sm text-muted-foreground">
          Get or create a user group, rotate its token, or delete it. A user group token identifies who is
          viewing an embedded dashboard.
        </p>
      </div>
      <UserGroupConsole
        allowed={{
          getOrCreate: can(operator.role, 'user-groups:get-or-create'),
          rotate: can(operator.role, 'user-groups:rotate'),
          delete: can(operator.role, 'user-groups:delete'),
        }}
      />
    </div>
  );
}
