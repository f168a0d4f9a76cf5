import { CompileError } from '@mailproof/engine/compile';
import { compileInThisProcess, disposeThisProcess, warmThisProcess } from '../compile-in-process';
import type { CompileProcessReady, CompileProcessRequest, CompileProcessResponse } from './compile-process-protocol';

/**
 * The compile process: untrusted templates compile here, one at a time, so that whatever a template
 * does to V8 (a fatal heap or size error aborts the process) ends only this process. The host sends
 * requests over IPC and starts a fresh process when this one dies. It holds no secrets: its
 * environment is empty and it opens no connection.
 */
if (!process.send) throw new Error('the compile process must be started with an IPC channel');
const send = (message: CompileProcessResponse | CompileProcessReady) => process.send!(message);

// The host is gone (crashed or killed): nothing is left to answer to.
process.on('disconnect', () => process.exit(0));

process.on('message', (request: CompileProcessRequest) => {
  void handle(request).then(send);
});

async function handle(request: CompileProcessRequest): Promise<CompileProcessResponse> {
  try {
    if (request.kind === 'warm') {
      await warmThisProcess();
      return { id: request.id, ok: true, result: { html: '', warnings: [] } };
    }
    return { id: request.id, ok: true, result: await compileInThisProcess(request.source, request.format, request.options) };
  } catch (error) {
    const details =
      error instanceof CompileError
        ? error.toJSON()
        : { message: error instanceof Error ? error.message : String(error), format: request.kind === 'compile' ? request.format : ('html' as const) };
    return { id: request.id, ok: false, error: details };
  }
}

process.on('SIGTERM', () => {
  void disposeThisProcess().finally(() => process.exit(0));
});

send({ ready: true });
