import { createHash } from 'node:crypto';
import { jobId } from './job-id';
import { isNonEmptyString, type JobRequest, type PayloadCheck } from './job-request';

export type RenderMode = 'light' | 'dark';
export const RENDER_MODES: readonly RenderMode[] = ['light', 'dark'];

/**
 * `render.screenshots`: paint a stored, analyzed preview's client views in headless Chromium (worker-render),
 * store the PNGs and the reports measured in the pages. The markup stays in PostgreSQL; the job names the
 * preview and what to paint.
 */
export const RENDER_SCREENSHOTS_JOB = {
  name: 'render.screenshots',
  queues: ['render'],
  schemaVersion: 1,
} as const;

export interface RenderScreenshotsJobPayload {
  schemaVersion: 1;
  previewId: string;
  /** Client ids to paint; null: every client of the preview. */
  clients: string[] | null;
  modes: RenderMode[];
}

export interface RenderScreenshotsJobResult {
  previewId: string;
  /** Screenshot ids ("<client>-light|dark") stored by this job. */
  captured: string[];
  failed: Array<{ id: string; reason: string }>;
}

export const checkRenderScreenshotsPayload: PayloadCheck = (data) => {
  if (!isNonEmptyString(data.previewId)) return 'previewId must be a non-empty string';
  if (data.clients !== null && !(Array.isArray(data.clients) && data.clients.length <= 64 && data.clients.every((id) => isNonEmptyString(id))))
    return 'clients must be null or a list of client ids';
  if (!Array.isArray(data.modes) || data.modes.length === 0 || !data.modes.every((mode) => (RENDER_MODES as readonly unknown[]).includes(mode)))
    return 'modes must list light and/or dark';
  return undefined;
};

/**
 * The priority of every render job: the render queue runs its jobs in the order they became ready.
 * A render job that is a step of a chain (a gate run with `visual`: analyze > render > verdict; a preview with
 * screenshots) is a BullMQ flow parent, and BullMQ moves a parent whose child completed to the *front* of the
 * wait list (`RPUSH`, moveParentToWait.lua), the end workers take from: without a priority the render queue is
 * last in, first out, and under a steady stream of runs an older job is overtaken by every newer one until the
 * stream stops (the gate's 503s at the visual budget: docs/gate.md, "The visual check"). A job with a priority
 * goes to the prioritized set instead, ordered by priority and then by a counter taken when it became ready
 * (addJobWithPriority.lua, for a moved parent as for an added job): one priority for all of them is FIFO.
 */
export const RENDER_JOB_PRIORITY = 1;

/**
 * Rendering of one preview. Two identical requests within the same minute share one job (the second waits
 * for the first); a later request renders again, so a failed render can be retried by asking again.
 * Every render job runs in the order it became ready (RENDER_JOB_PRIORITY).
 */
export function renderScreenshotsJob(
  previewId: string,
  clients: readonly string[] | null,
  modes: readonly RenderMode[],
  now = Date.now(),
): JobRequest<'render.screenshots', RenderScreenshotsJobPayload> {
  const sortedClients = clients === null ? null : [...new Set(clients)].sort();
  const sortedModes = RENDER_MODES.filter((mode) => modes.includes(mode));
  const what = createHash('sha256')
    .update(JSON.stringify([sortedClients, sortedModes]))
    .digest('hex')
    .slice(0, 16);
  return {
    queue: 'render',
    name: RENDER_SCREENSHOTS_JOB.name,
    data: { schemaVersion: 1, previewId, clients: sortedClients, modes: sortedModes },
    jobId: jobId(RENDER_SCREENSHOTS_JOB.name, previewId, what, Math.floor(now / 60_000)),
    priority: RENDER_JOB_PRIORITY,
  };
}
