import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { callRoute } from '@/lib/browser-client/console-client';
import { type Environment, slugOf } from '@/lib/environments';
import type { CreateGetOrCreateJob, CreateRotateJob } from '@/lib/jobs/contract';
import { jobRoutes } from '@/lib/jobs/routes';
import { jobPath } from '../../_components/paths';

/**
 * Makes a draft job (nothing is sent yet) and opens its page, where it is previewed and started.
 * The body is made inside the mutation: a chosen file is read first, and a file that cannot be
 * read fails the mutation like a refusal would.
 */
export function useCreateGetOrCreateJob(environment: Environment) {
  const router = useRouter();
  const slug = slugOf[environment];
  return useMutation({
    mutationFn: async (makeBody: () => Promise<CreateGetOrCreateJob>) =>
      callRoute(jobRoutes.createGetOrCreateJob, {
        params: { environment: slug },
        body: await makeBody(),
      }),
    onSuccess: (job) => router.push(jobPath(slug, job.id)),
  });
}

/** The same for a rotation: of pasted or uploaded tokens, or of groups chosen in the directory. */
export function useCreateRotateJob(environment: Environment) {
  const router = useRouter();
  const slug = slugOf[environment];
  return useMutation({
    mutationFn: async (makeBody: () => Promise<CreateRotateJob>) =>
      callRoute(jobRoutes.createRotateJob, { params: { environment: slug }, body: await makeBody() }),
    onSuccess: (job) => router.push(jobPath(slug, job.id)),
  });
}
