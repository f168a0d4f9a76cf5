// The database of one jest worker. The integration and e2e files run on parallel workers; each worker has
// a database of its own (`<name>_w2`, `<name>_w3`, ...; worker 1 and a run in band keep the name as given),
// so that what one file's apps scan as a whole (the scheduler's monitored domains, the expiry sweep, the
// counts a test asserts) never includes another file's rows. Queues and rate-limit counters are kept apart
// by the per-file QUEUE_PREFIX (test-env.ts).
'use strict';

/** The URL of worker `workerId`'s database (JEST_WORKER_ID: 1, 2, ...). */
function databaseUrlForWorker(baseUrl, workerId) {
  if (workerId === undefined || workerId === '' || String(workerId) === '1') return baseUrl;
  const url = new URL(baseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  url.pathname = `/${encodeURIComponent(`${name}_w${workerId}`)}`;
  return url.toString();
}

module.exports = { databaseUrlForWorker };
