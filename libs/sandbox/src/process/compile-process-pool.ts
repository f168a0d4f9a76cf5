import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { CompileError } from '@mailproof/engine/compile';
import type { CompileResult } from '@mailproof/engine/compile';
import { resolveLimits, type CompileOptions } from '../compile-limits';
import type { CompiledFormat } from '../compile-in-process';
import { bundleSandboxEntry } from '../sandbox-sources';
import type { CompileProcessReady, CompileProcessRequest, CompileProcessResponse } from './compile-process-protocol';

export interface CompileProcessPoolOptions {
  /** Compile processes kept alive; each compiles one template at a time. */
  processes: number;
  /** Resident memory of one compile process (host heap, isolates, compile worker) before it is killed. */
  memoryLimitMb: number;
  /** V8 old-space limit of the process's own heap (`--max-old-space-size`). */
  heapLimitMb: number;
}

export const DEFAULT_COMPILE_PROCESS_OPTIONS: CompileProcessPoolOptions = { processes: 2, memoryLimitMb: 1024, heapLimitMb: 512 };

/** Time a process gets beyond the template's own limit (isolate start, esbuild, IPC) before it is killed. */
export const KILL_GRACE_MS = 2_000;
/** How often the resident memory of a busy process is read. */
const MEMORY_POLL_MS = 50;
/** Time a fresh process gets to load its code and build its snapshots. */
const START_TIMEOUT_MS = 30_000;
/** Last bytes of a process's stderr kept to tell why it died (V8 prints its fatal error there). */
const STDERR_TAIL_BYTES = 4_096;
// What V8 prints when a heap (the process's or an isolate's) gives up: an isolate past its limit can
// abort the whole process ("is_heap_oom = 1" after its last GCs) rather than throw inside it.
const MEMORY_DEATH =
  /out of memory|is_heap_oom = 1|last few GCs|invalid (array|size|string|typed array) length|invalid size error|allocation failed|heap limit/i;

interface Task {
  request: CompileProcessRequest;
  /** Milliseconds until the process is killed; also the limit named in the error. */
  timeoutMs: number;
  format: CompiledFormat | 'html';
  resolve: (response: CompileProcessResponse) => void;
  reject: (error: CompileError) => void;
}

interface Slot {
  /** Absent while the process is being started (the slot is counted at once). */
  child?: ChildProcess;
  ready: boolean;
  stderrTail: string;
  /** Why the pool killed it, when it did. */
  killedFor?: 'time' | 'memory';
  busy?: { task: Task; killTimer: NodeJS.Timeout; memoryTimer: NodeJS.Timeout };
}

/**
 * Compile processes: child processes that compile untrusted templates one at a time. Inside, the
 * isolates keep their own time and memory limits; outside, this pool keeps a hard one of each: a
 * process past its time (limit + KILL_GRACE_MS) or resident memory cap is killed with SIGKILL. A
 * process that dies for any reason fails only its own template, with a CompileError that says which
 * limit it hit, and a fresh process replaces it. Nothing a template does reaches the host's heap.
 */
export class CompileProcessPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: CompileProcessPoolOptions = DEFAULT_COMPILE_PROCESS_OPTIONS) {}

  async compile(source: string, format: CompiledFormat, options?: CompileOptions): Promise<CompileResult> {
    const { timeoutMs } = resolveLimits(options);
    const response = await this.submit({ id: this.nextId++, kind: 'compile', source, format, options }, format, timeoutMs + KILL_GRACE_MS);
    if (response.ok) return response.result;
    throw new CompileError(response.error);
  }

  /** Starts every process and waits until each has built its snapshots and loaded its compilers. */
  async warm(): Promise<void> {
    const warmups = Array.from({ length: this.options.processes }, () => this.submit({ id: this.nextId++, kind: 'warm' }, 'html', START_TIMEOUT_MS));
    for (const response of await Promise.all(warmups)) {
      if (!response.ok) throw new Error(`a compile process could not start: ${response.error.message}`);
    }
  }

  /** Ends every process; queued and running compiles fail. Safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(this.shutDownError(task));
    await Promise.all(this.slots.splice(0).map((slot) => this.stop(slot)));
  }

  /** Process ids of the live compile processes (tests kill them to prove a death is contained). */
  pids(): number[] {
    return this.slots.flatMap((slot) => (slot.child?.pid === undefined ? [] : [slot.child.pid]));
  }

  /** Process ids of the processes compiling right now. */
  busyPids(): number[] {
    return this.slots.flatMap((slot) => (slot.busy && slot.child?.pid !== undefined ? [slot.child.pid] : []));
  }

  private submit(request: CompileProcessRequest, format: Task['format'], timeoutMs: number): Promise<CompileProcessResponse> {
    return new Promise((resolve, reject) => {
      const task: Task = { request, timeoutMs, format, resolve, reject };
      if (this.closed) return reject(this.shutDownError(task));
      this.queue.push(task);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0 && !this.closed) {
      const idle = this.slots.find((slot) => slot.ready && !slot.busy);
      if (!idle) {
        if (this.slots.length < this.options.processes) void this.spawn();
        return;
      }
      this.start(idle, this.queue.shift()!);
    }
  }

  private start(slot: Slot, task: Task): void {
    const killTimer = setTimeout(() => this.kill(slot, 'time'), task.timeoutMs);
    const memoryTimer = setInterval(() => void this.checkMemory(slot), MEMORY_POLL_MS);
    slot.busy = { task, killTimer, memoryTimer };
    // A slot is ready only once its process said so, so it has one.
    slot.child?.send(task.request);
  }

  private async spawn(): Promise<void> {
    // Counted at once, so dispatch does not start a second process for the same queued task.
    const slot: Slot = { ready: false, stderrTail: '' };
    this.slots.push(slot);
    let code: string;
    try {
      code = await compileProcessSource();
    } catch (error) {
      this.remove(slot);
      for (const task of this.queue.splice(0)) {
        task.reject(
          new CompileError({ message: `The compiler could not start: ${error instanceof Error ? error.message : String(error)}`, format: task.format }),
        );
      }
      return;
    }
    if (this.closed) return void this.remove(slot);
    const child = spawn(process.execPath, [`--max-old-space-size=${this.options.heapLimitMb}`, '--no-node-snapshot', '-e', BOOTSTRAP], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // Nothing secret crosses: the process sees only whether snapshots are switched off.
      env: process.env.MAILPROOF_SANDBOX_SNAPSHOTS ? { MAILPROOF_SANDBOX_SNAPSHOTS: process.env.MAILPROOF_SANDBOX_SNAPSHOTS } : {},
    });
    slot.child = child;
    child.stderr?.on('data', (chunk: Buffer) => {
      slot.stderrTail = (slot.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    child.on('message', (message: CompileProcessResponse | CompileProcessReady) => this.onMessage(slot, message));
    // 'close', not 'exit': V8's last words on stderr arrive before it, and they tell a memory death apart.
    child.on('close', (exitCode, signal) => this.onExit(slot, exitCode, signal));
    child.on('error', () => this.kill(slot));
    // The pool must never keep a finished program (the CLI) alive; a running compile's timer does.
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    child.send({ code });
  }

  private onMessage(slot: Slot, message: CompileProcessResponse | CompileProcessReady): void {
    if ('ready' in message) {
      slot.ready = true;
      this.dispatch();
      return;
    }
    const busy = slot.busy;
    if (!busy || busy.task.request.id !== message.id) return;
    this.release(slot);
    busy.task.resolve(message);
    this.dispatch();
  }

  private onExit(slot: Slot, exitCode: number | null, signal: NodeJS.Signals | null): void {
    const busy = slot.busy;
    this.release(slot);
    this.remove(slot);
    if (busy) busy.task.reject(this.deathError(slot, busy.task, exitCode, signal));
    // A replacement starts only when work is waiting; warm() or the next compile starts one otherwise.
    this.dispatch();
  }

  private deathError(slot: Slot, task: Task, exitCode: number | null, signal: NodeJS.Signals | null): CompileError {
    if (this.closed) return this.shutDownError(task);
    const format = task.format;
    if (slot.killedFor === 'time') {
      return new CompileError({ message: `The template exceeded its time limit of ${task.timeoutMs - KILL_GRACE_MS} ms`, format });
    }
    if (slot.killedFor === 'memory' || MEMORY_DEATH.test(slot.stderrTail) || signal === 'SIGKILL') {
      return new CompileError({ message: 'The template exceeded its memory limit', format });
    }
    return new CompileError({ message: `The template crashed the compiler (${signal ?? `exit code ${String(exitCode)}`})`, format });
  }

  private async checkMemory(slot: Slot): Promise<void> {
    const pid = slot.child?.pid;
    if (!slot.busy || pid === undefined) return;
    const rssBytes = await residentBytes(pid);
    if (rssBytes !== undefined && rssBytes > this.options.memoryLimitMb * 1024 * 1024) this.kill(slot, 'memory');
  }

  private kill(slot: Slot, reason?: Slot['killedFor']): void {
    if (reason && !slot.killedFor) slot.killedFor = reason;
    slot.child?.kill('SIGKILL');
  }

  private release(slot: Slot): void {
    if (!slot.busy) return;
    clearTimeout(slot.busy.killTimer);
    clearInterval(slot.busy.memoryTimer);
    slot.busy = undefined;
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
  }

  private async stop(slot: Slot): Promise<void> {
    const busy = slot.busy;
    this.release(slot);
    busy?.task.reject(this.shutDownError(busy.task));
    const child = slot.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 2_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  private shutDownError(task: Task): CompileError {
    return new CompileError({ message: 'The compilers are shut down', format: task.format });
  }
}

/** Resident set size from /proc (Linux); undefined where it cannot be read, and then only the time limit holds. */
async function residentBytes(pid: number): Promise<number | undefined> {
  try {
    const statm = await readFile(`/proc/${pid}/statm`, 'utf8');
    const pages = Number(statm.split(' ')[1]);
    return Number.isFinite(pages) ? pages * 4096 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The process is started with `node -e BOOTSTRAP` and receives its code as its first message: no
 * file is written, and the same bundle serves jest (TypeScript sources) and dist (compiled ones).
 */
const BOOTSTRAP = [
  "process.once('message', function (message) {",
  "  require('node:vm').runInThisContext(message.code, { filename: 'mailproof-compile-process.js' });",
  '});',
].join('\n');

let sourcePromise: Promise<string> | undefined;

/** The compile process's code (bundleSandboxEntry), built once per host process. */
export function compileProcessSource(): Promise<string> {
  if (!sourcePromise) {
    sourcePromise = bundleSandboxEntry('process/compile-process.main').catch((error: unknown) => {
      sourcePromise = undefined;
      throw error;
    });
  }
  return sourcePromise;
}
