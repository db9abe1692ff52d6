import { NotFoundMessage } from '@/components/not-found-message';

/**
 * What `notFound()` renders in the console's pages (an unknown environment such as `/nope`, a bulk
 * job or a group that is not there): inside the console's own header and `<main>`, so one of each.
 */
export default function ConsoleNotFound() {
  return <NotFoundMessage />;
}
