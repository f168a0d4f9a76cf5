// How `npm start` shows the apps' logs. The apps always write pino's JSON lines (one object per
// line, for log collectors); when a person watches a terminal, start.js reads them from the
// launcher's stdout and prints one short line each instead. Plain Node, no dependency: it runs
// before and without anything the apps install (docs/operations.md, Logs).
'use strict';

/**
 * 'pretty' only for a terminal outside production; 'json' for production, pipes, files and
 * services (systemd, Docker, CI), where each line must stay one parseable object.
 */
function chooseLogFormat({ isTTY, env }) {
  if (env.NODE_ENV === 'production') return 'json';
  return isTTY ? 'pretty' : 'json';
}

const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
/** Nest's module and route wiring: dozens of info lines at every start that say nothing new. */
const WIRING = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

const pad = (n) => String(n).padStart(2, '0');

/**
 * One human line for one JSON log line, or null for wiring chatter. A line that is not a pino
 * object (a stack trace, another program's output) is passed through unchanged.
 */
function formatLogLine(line, options = {}) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (!entry || typeof entry !== 'object' || Array.isArray(entry) || !('level' in entry)) return line;
  const level = LEVELS[entry.level] ?? String(entry.level);
  const severe = level === 'warn' || level === 'error' || level === 'fatal';
  if (!severe && WIRING.has(entry.context)) return null;

  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now());
  const clock = `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}`;
  let message = typeof entry.msg === 'string' ? entry.msg : '';
  if (entry.req && entry.res && typeof entry.res.statusCode === 'number') {
    const took = typeof entry.responseTime === 'number' ? ` ${entry.responseTime} ms` : '';
    message = `${entry.req.method} ${entry.req.url} ${entry.res.statusCode}${took}`;
  }
  const error = entry.err && (entry.err.stack || entry.err.message);
  const label = level === 'info' ? '' : `${level.toUpperCase()} `;
  const context = entry.context ? `${entry.context}: ` : '';
  const text = `${clock} ${label}${context}${message}${error ? `\n${String(error).replace(/^/gm, '    ')}` : ''}`;
  if (!options.color || level === 'info') return text;
  return `${severe ? '\x1b[31m' : '\x1b[2m'}${text}\x1b[0m`;
}

/** Reads JSON lines from `input` and writes their human form to `output` (a terminal). */
function prettify(input, output, options = {}) {
  let pending = '';
  const flush = (text) => {
    const formatted = formatLogLine(text, options);
    if (formatted !== null) output.write(`${formatted}\n`);
  };
  input.setEncoding('utf8');
  input.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop();
    for (const line of lines) if (line !== '') flush(line);
  });
  input.on('end', () => {
    if (pending !== '') flush(pending);
  });
}

module.exports = { chooseLogFormat, formatLogLine, prettify };
