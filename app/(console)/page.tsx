import { redirect } from 'next/navigation';

/** The console opens on the Customer environment's groups. */
export default function ConsoleHome() {
  redirect('/customer');
}
