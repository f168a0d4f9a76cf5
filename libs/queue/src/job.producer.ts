import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, Optional, type OnModuleDestroy } from '@nestjs/common';
import { FlowProducer, type FlowJob, type Job, type JobsOptions, type Queue } from 'bullmq';
import { JOB_DEFINITIONS, payloadProblem, type JobName, type JobPayload, type JobRequest, type JobResult, type QueueName } from '@mailproof/contracts';
import { withDeadline } from './deadline';
import { FailureLog } from './failure-log';
import { withTraceContext } from './job-tracing';
import { tracer } from '@mailproof/tracing';
import { DEFAULT_JOB_OPTIONS } from './job-defaults';
import { QueueUnavailableError } from './queue-unavailable.error';

/** The deadline (ms) of one enqueue; provided only where requests wait on it (the API). */
export const ENQUEUE_DEADLINE_MS = Symbol('ENQUEUE_DEADLINE_MS');

export type TypedJob<N extends JobName> = Job<JobPayload<N>, JobResult<N>, N>;

/** The one typed way to put a job on a queue. */
@Injectable()
export class JobProducer implements OnModuleDestroy {
  private readonly queues: Record<QueueName, Queue>;
  private flowProducer: FlowProducer | undefined;
  private readonly flowErrors = new FailureLog('job flows (Redis)', new Logger('JobProducer'));

  constructor(
    @InjectQueue('preview') preview: Queue,
    @InjectQueue('render') render: Queue,
    @InjectQueue('dns-audit') dnsAudit: Queue,
    @InjectQueue('scheduler') scheduler: Queue,
    @InjectQueue('gate') gate: Queue,
    @InjectQueue('link-check') linkCheck: Queue,
    @InjectQueue('webhook') webhook: Queue,
    @Optional() @Inject(ENQUEUE_DEADLINE_MS) private readonly deadlineMs?: number,
  ) {
    this.queues = { preview, render, 'dns-audit': dnsAudit, scheduler, gate, 'link-check': linkCheck, webhook };
    // BullMQ adds a 'closing' listener per pending command; many concurrent requests are normal here.
    for (const queue of Object.values(this.queues)) queue.setMaxListeners(1_000);
  }

  queue(name: QueueName): Queue {
    return this.queues[name];
  }

  /**
   * Adds the job a payload builder made (contracts: `previewAnalyzeJob()`, `dnsAuditJob()`, ...). Any
   * failure to add it (Redis refusing, not answering within the deadline, out of memory) is a
   * QueueUnavailableError. With a deadline, a job whose command was sent before Redis froze may still be
   * added once it thaws: job ids are deterministic and jobs idempotent for that.
   */
  async enqueue<N extends JobName>(request: JobRequest<N, JobPayload<N>>): Promise<TypedJob<N>> {
    checkRequest(request);
    return this.traced(`enqueue ${request.name}`, request.queue, 1, () => {
      const options = withTraceContext(standaloneJobOptions(request), 'parent');
      const adding = this.queues[request.queue].add(request.name as never, request.data as never, options) as Promise<unknown> as Promise<TypedJob<N>>;
      return this.bounded(request.queue, adding);
    });
  }

  /**
   * Adds many jobs of one queue in one round trip (a sweep), each checked as `enqueue()` checks one.
   * Jobs whose id already exists are not added twice (BullMQ keeps the first).
   */
  async enqueueBulk<N extends JobName>(requests: ReadonlyArray<JobRequest<N, JobPayload<N>>>): Promise<Array<TypedJob<N>>> {
    if (requests.length === 0) return [];
    const queue = requests[0].queue;
    for (const request of requests) {
      if (request.queue !== queue) throw new Error(`enqueueBulk: one queue per call (${queue} and ${request.queue})`);
      checkRequest(request);
    }
    const adding = this.queues[queue].addBulk(
      requests.map((request) => ({ name: request.name as never, data: request.data as never, opts: withTraceContext(standaloneJobOptions(request), 'link') })),
    ) as Promise<unknown> as Promise<Array<TypedJob<N>>>;
    return this.bounded(queue, adding);
  }

  /**
   * Adds a chain of jobs as one BullMQ flow, in the order they run: each job waits until the one before
   * it has completed, and a job that fails for good fails every job after it (`failParentOnFailure`),
   * so whoever waits on the last job hears of it. Returns the last job. The chain is in Redis as a
   * whole or not at all (BullMQ adds a flow in one transaction); every job is checked as `enqueue()`
   * checks one and gets the default attempts, backoff and retention (flows do not apply a queue's
   * defaults).
   */
  async enqueueChain(requests: ReadonlyArray<JobRequest<JobName, unknown>>): Promise<Job> {
    const steps = await this.enqueueChainSteps(requests);
    return steps[steps.length - 1];
  }

  /** `enqueueChain`, returning every job of the chain in the order they run (to await an early step). */
  async enqueueChainSteps(requests: ReadonlyArray<JobRequest<JobName, unknown>>): Promise<Job[]> {
    if (requests.length === 0) throw new Error('enqueueChain: no jobs');
    return this.traced(`enqueue ${requests.map((request) => request.name).join(' > ')}`, requests[requests.length - 1].queue, requests.length, () =>
      this.addChain(requests),
    );
  }

  private addChain(requests: ReadonlyArray<JobRequest<JobName, unknown>>): Promise<Job[]> {
    let child: FlowJob | undefined;
    for (const request of requests) {
      checkRequest(request);
      const node: FlowJob = {
        name: request.name,
        queueName: request.queue,
        data: request.data,
        opts: withTraceContext({ ...DEFAULT_JOB_OPTIONS, ...jobOptions(request) }, 'parent'),
        children: child ? [{ ...child, opts: { ...child.opts, failParentOnFailure: true } }] : undefined,
      };
      child = node;
    }
    const last = requests[requests.length - 1];
    const adding = this.flows()
      .add(child!)
      .then((tree) => {
        this.flowErrors.succeeded();
        const lastFirst: Job[] = [];
        for (let node: typeof tree | undefined = tree; node; node = node.children?.[0]) lastFirst.push(node.job);
        return lastFirst.reverse();
      });
    return this.bounded(last.queue, adding);
  }

  async onModuleDestroy(): Promise<void> {
    await this.flowProducer?.close();
  }

  /** One FlowProducer per process, over the same connection and prefix as the queues. */
  private flows(): FlowProducer {
    if (!this.flowProducer) {
      const { connection, prefix } = this.queues.gate.opts;
      this.flowProducer = new FlowProducer({ connection, prefix });
      // Its connection's errors: the add that meets one fails with QueueUnavailableError; the outage is logged once.
      this.flowProducer.on('error', (error) => this.flowErrors.failed(error));
    }
    return this.flowProducer;
  }

  /** A producer span around an enqueue made inside a trace (a request, a job); none outside one. */
  private traced<T>(name: string, queue: QueueName, count: number, add: () => Promise<T>): Promise<T> {
    const tracing = tracer();
    if (!tracing.activeTraceparent()) return add();
    const attributes = { 'messaging.system': 'bullmq', 'messaging.destination.name': queue, 'messaging.operation.type': 'send', 'mailproof.job.count': count };
    return tracing.inSpan(name, { kind: 'producer', attributes }, add);
  }

  private bounded<T>(queue: QueueName, adding: Promise<T>): Promise<T> {
    const bounded =
      this.deadlineMs === undefined
        ? adding
        : withDeadline(adding, this.deadlineMs, () => new QueueUnavailableError(queue, `Redis did not take the job within ${this.deadlineMs} ms`));
    return bounded.catch((error: unknown) => {
      if (error instanceof QueueUnavailableError) throw error;
      throw new QueueUnavailableError(queue, error instanceof Error ? error.message : String(error));
    });
  }
}

/** A producer bug, not an outage: thrown as a plain Error before anything reaches Redis. */
function checkRequest(request: JobRequest<string, unknown>): void {
  const definition = JOB_DEFINITIONS[request.name as JobName];
  if (!definition) throw new Error(`unknown job ${request.name}`);
  if (!definition.queues.includes(request.queue)) throw new Error(`job ${request.name} does not run on queue ${request.queue}`);
  if (request.jobId.includes(':')) throw new Error(`job id must not contain ':' (${request.jobId})`);
  const problem = payloadProblem(request.name as JobName, request.data);
  if (problem) throw new Error(`job ${request.name}: ${problem}`);
}

/** A job added on its own: jobOptions, and removal on completion where the request asks for it (never in a chain, whose next step reads it). */
function standaloneJobOptions(request: JobRequest<string, unknown>): JobsOptions {
  const options = jobOptions(request);
  if (request.removeWhenComplete) options.removeOnComplete = true;
  return options;
}

function jobOptions(request: JobRequest<string, unknown>): JobsOptions {
  const options: JobsOptions = { jobId: request.jobId };
  if (request.priority !== undefined) options.priority = request.priority;
  if (request.retry) Object.assign(options, { attempts: request.retry.attempts, backoff: { type: 'exponential', delay: request.retry.backoffMs } });
  return options;
}
