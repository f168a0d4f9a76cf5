import { Worker } from 'node:worker_threads';
import { COMPILE_LIMITS } from '../compile-limits';
import { bundleSandboxEntry } from '../sandbox-sources';
import type { CompileWorkerRequest, CompileWorkerResponse, CompileWorkerTask } from './compile-worker-protocol';

/** The worker was stopped: it ran past its time limit, ran out of heap or crashed. */
export class CompileWorkerFailure extends Error {
  constructor(
    readonly kind: 'timeout' | 'crash',
    message: string,
  ) {
    super(message);
  }
}

interface PendingTask {
  request: CompileWorkerRequest;
  timeoutMs: number;
  resolve: (response: CompileWorkerResponse) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy?: { task: PendingTask; timer: NodeJS.Timeout };
}

let workerSourcePromise: Promise<string> | undefined;

/** The worker's code (bundleSandboxEntry), built once per process. */
function workerSource(): Promise<string> {
  if (!workerSourcePromise) {
    workerSourcePromise = bundleSandboxEntry('worker/compile.worker').catch((error: unknown) => {
      workerSourcePromise = undefined;
      throw error;
    });
  }
  return workerSourcePromise;
}

/**
 * A small pool of compile worker threads. Each runs one task at a time; a task past its time limit
 * terminates its thread (a fresh one replaces it), so the host never waits on runaway CPU work.
 */
export class CompileWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: PendingTask[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly size = 1) {}

  async run(task: CompileWorkerTask, timeoutMs: number): Promise<CompileWorkerResponse> {
    if (this.closed) throw new CompileWorkerFailure('crash', 'The compile workers are shut down');
    const source = await workerSource();
    return new Promise<CompileWorkerResponse>((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, task }, timeoutMs, resolve, reject });
      this.dispatch(source);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new CompileWorkerFailure('crash', 'The compile workers are shut down'));
    await Promise.all(
      this.slots.splice(0).map(async (slot) => {
        if (slot.busy) {
          clearTimeout(slot.busy.timer);
          slot.busy.task.reject(new CompileWorkerFailure('crash', 'The compile workers are shut down'));
        }
        await slot.worker.terminate();
      }),
    );
  }

  private dispatch(source: string): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((candidate) => !candidate.busy);
      if (!slot && this.slots.length < this.size) slot = this.spawn(source);
      if (!slot) return;
      const task = this.queue.shift()!;
      const timer = setTimeout(() => this.fail(slot!, new CompileWorkerFailure('timeout', `time limit of ${task.timeoutMs} ms exceeded`)), task.timeoutMs);
      slot.busy = { task, timer };
      slot.worker.postMessage(task.request);
    }
  }

  private spawn(source: string): Slot {
    const worker = new Worker(source, {
      eval: true,
      // The worker needs no secrets: it gets an empty environment.
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: COMPILE_LIMITS.workerHeapMb },
    });
    const slot: Slot = { worker };
    worker.unref();
    worker.on('message', (response: CompileWorkerResponse) => {
      const busy = slot.busy;
      if (!busy || busy.task.request.id !== response.id) return;
      clearTimeout(busy.timer);
      slot.busy = undefined;
      busy.task.resolve(response);
      this.dispatch(source);
    });
    worker.on('error', (error) =>
      this.fail(slot, new CompileWorkerFailure('crash', /memory/i.test(error.message) ? 'memory limit exceeded' : 'the compiler crashed')),
    );
    worker.on('exit', () => this.fail(slot, new CompileWorkerFailure('crash', 'the compiler stopped unexpectedly')));
    this.slots.push(slot);
    return slot;
  }

  private fail(slot: Slot, error: CompileWorkerFailure): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    if (slot.busy) {
      clearTimeout(slot.busy.timer);
      slot.busy.task.reject(error);
      slot.busy = undefined;
    }
    void slot.worker.terminate();
    if (!this.closed && this.queue.length > 0) void workerSource().then((source) => this.dispatch(source));
  }
}
