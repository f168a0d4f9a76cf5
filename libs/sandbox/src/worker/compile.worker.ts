import { parentPort } from 'node:worker_threads';
import type { CompileWorkerRequest, CompileWorkerResponse } from './compile-worker-protocol';

/**
 * The compile worker thread: trusted libraries (mjml, Tailwind, juice) working on untrusted markup.
 * It runs off the caller's event loop so a pathological input (juice is superlinear on some CSS) is
 * stopped by terminating the thread, not by blocking the process.
 */
const port = parentPort;
if (!port) throw new Error('compile.worker must run as a worker thread');

// Tailwind prints content warnings about the user's markup; they are not the server's logs.
console.warn = () => undefined;
console.log = () => undefined;

port.on('message', (request: CompileWorkerRequest) => {
  void handle(request).then((response) => port.postMessage(response));
});

// Each library loads on its first task: an MJML compile needs no Tailwind, a Maizzle one no mjml, and the command-line
// package installs each format's compilers on demand (docs/cli.md, "The package"). The pool starts a task's timer
// when it posts the task, so a new worker's loading counted against its first task before too, for both libraries.
const mjml = () => import('../mjml/compile-mjml-in-worker');
const maizzleCss = () => import('../maizzle/maizzle-css-in-worker');

async function handle(request: CompileWorkerRequest): Promise<CompileWorkerResponse> {
  const { id, task } = request;
  try {
    switch (task.kind) {
      case 'mjml':
        return { id, ...(await (await mjml()).compileMjmlInWorker(task.source, task.validation, task.files)) };
      case 'maizzle-css':
        return { id, ...(await (await maizzleCss()).compileMaizzleCssInWorker(task.html, task.config)) };
      case 'warm':
        await (
          await mjml()
        ).compileMjmlInWorker('<mjml><mj-body><mj-section><mj-column><mj-text>warm</mj-text></mj-column></mj-section></mj-body></mjml>', 'soft');
        await (await maizzleCss()).compileMaizzleCssInWorker('<html><head></head><body><p class="m-0">warm</p></body></html>', {});
        return { id, ok: true, html: '', warnings: [] };
    }
  } catch (error) {
    return { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
