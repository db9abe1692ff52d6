import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute, downloadRoute } from '@/lib/browser-client/console-client';
import { useRouteMutation } from '@/lib/browser-client/use-route-mutation';
import { type JobView, jobRowsQueryString, type RowFilter } from '@/lib/jobs/contract';
import { jobRoutes } from '@/lib/jobs/routes';

const ended = (status: JobView['status']) => status === 'finished' || status === 'cancelled';
const jobKey = (id: string) => ['job', id];

/**
 * A job as it stands, read again every second while it runs (and every few seconds otherwise, so
 * a job someone else starts or pauses shows here too).
 */
export function useJob(initial: JobView) {
  return useQuery({
    queryKey: jobKey(initial.id),
    queryFn: ({ signal }) => callRoute(jobRoutes.readJob, { params: { id: initial.id }, signal }),
    initialData: initial,
    refetchInterval: (query) => {
      const status = query.state.data?.status ?? initial.status;
      return status === 'running' ? 1_000 : ended(status) ? false : 3_000;
    },
  });
}

/**
 * A page of the job's rows (after a position, of one outcome or all), read again as the job moves
 * (`progressKey`: its status and rows settled), the page shown kept while the next one comes.
 */
export function useJobRows(
  id: string,
  page: { after: string | null; show: RowFilter; limit: number },
  progressKey: string,
) {
  return useQuery({
    queryKey: [...jobKey(id), 'rows', page.show, page.after, page.limit, progressKey],
    queryFn: ({ signal }) =>
      callRoute(jobRoutes.jobRows, { params: { id }, query: jobRowsQueryString(page), signal }),
    placeholderData: keepPreviousData,
  });
}

/** Start, pause, resume or cancel; the answer, the job as it is now, replaces the one read. */
export function useSteerJob(id: string) {
  const queryClient = useQueryClient();
  return useRouteMutation(jobRoutes.steerJob, {
    params: { id },
    // A start the policy made wait: the panel reads the waiting answer from the mutation's data.
    onWaiting: () => {},
    onSuccess: (next) => queryClient.setQueryData(jobKey(id), next),
  });
}

/**
 * Takes the job's tokens (the console then erases them) and hands the file to the browser to save.
 * Taken now, or by someone before: either way the job is read again, to say when and by whom.
 */
export function useTakeJobTokens(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => downloadRoute(jobRoutes.jobTokens, { params: { id } }),
    onSuccess: saveFile,
    onSettled: () => queryClient.invalidateQueries({ queryKey: jobKey(id) }),
  });
}

/** Hands a downloaded file to the browser to save, as a link with `download` would. */
function saveFile({ file, name }: { file: Blob; name: string }): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the URL need not outlive it for long.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
