import { connect } from 'node:net';
import type { SpamAssassinResult, SpamAssassinRule } from '@mailproof/contracts';

/**
 * A small client for spamd's spamc protocol (SPAMC/1.5, the REPORT command) over TCP. Written here rather
 * than taken from npm: the one npm client (`spamc` 0.0.x) is unmaintained, callback-only and has no
 * timeout, and the protocol is a request line, two headers and a text answer.
 */
export interface SpamdAddress {
  host: string;
  port: number;
  timeoutMs: number;
}

export class SpamdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpamdError';
  }
}

/** Largest answer accepted: a REPORT for a 500 KB email is a few KB. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Sends one MIME message to spamd and returns its verdict; rejects with SpamdError on timeout or a bad answer. */
export function checkWithSpamd(message: Buffer, address: SpamdAddress): Promise<SpamAssassinResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (error: Error | null, result?: SpamAssassinResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(result!);
    };
    const socket = connect({ host: address.host, port: address.port });
    // One deadline for connect, send, scan and answer together.
    const timer = setTimeout(
      () => finish(new SpamdError(`spamd at ${address.host}:${address.port} did not answer within ${address.timeoutMs} ms`)),
      address.timeoutMs,
    );
    socket.once('connect', () => {
      socket.write(`REPORT SPAMC/1.5\r\nContent-length: ${message.length}\r\nUser: mailproof\r\n\r\n`);
      socket.write(message);
      // Half-close: spamd reads to the end of the message, then answers.
      socket.end();
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > MAX_RESPONSE_BYTES) finish(new SpamdError('spamd answer too large'));
      else chunks.push(chunk);
    });
    socket.once('end', () => {
      try {
        finish(null, parseSpamdResponse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        finish(error as Error);
      }
    });
    socket.once('error', (error) => finish(new SpamdError(`spamd at ${address.host}:${address.port}: ${error.message}`)));
  });
}

/** Parses a SPAMD/1.x answer to REPORT: the Spam header's score and threshold, and the report's rule table. */
export function parseSpamdResponse(raw: string): SpamAssassinResult {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 4);
  const [statusLine, ...headerLines] = head.split('\r\n');
  const status = /^SPAMD\/\d+\.\d+ (\d+) (.*)$/.exec(statusLine ?? '');
  if (!status) throw new SpamdError(`not a spamd answer: ${(statusLine ?? '').slice(0, 80)}`);
  if (status[1] !== '0') throw new SpamdError(`spamd refused the message: ${status[1]} ${status[2]}`);
  const spamHeader = headerLines.find((line) => /^spam:/i.test(line));
  const verdict = spamHeader && /^spam:\s*(true|false|yes|no)\s*;\s*(-?\d+(?:\.\d+)?)\s*\/\s*(-?\d+(?:\.\d+)?)/i.exec(spamHeader);
  if (!verdict) throw new SpamdError('spamd answer without a Spam: header');
  return {
    score: Number(verdict[2]),
    threshold: Number(verdict[3]),
    isSpam: /^(true|yes)$/i.test(verdict[1]),
    rules: parseRuleTable(body),
  };
}

/**
 * The report's table: " pts rule name  description" under a dashed line, one rule per line, long
 * descriptions continued on indented lines.
 */
function parseRuleTable(report: string): SpamAssassinRule[] {
  const lines = report.split(/\r?\n/);
  const start = lines.findIndex((line) => /^-{3,}\s+-{3,}\s+-{3,}/.test(line));
  if (start === -1) return [];
  const rules: SpamAssassinRule[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    const rule = /^\s*(-?\d+(?:\.\d+)?)\s+([A-Za-z0-9_]+)(?:\s+(.*))?$/.exec(line);
    if (rule) {
      rules.push({ name: rule[2], score: Number(rule[1]), description: rule[3]?.trim() || null });
    } else if (rules.length > 0) {
      const last = rules[rules.length - 1];
      last.description = [last.description, line.trim()].filter(Boolean).join(' ');
    }
  }
  return rules;
}
