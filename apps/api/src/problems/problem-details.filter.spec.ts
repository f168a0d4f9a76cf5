import { BadRequestException, NotFoundException, type ArgumentsHost } from '@nestjs/common';
import { AccountGoneError, DataKeyring, DataKeyringError } from '@mailproof/persistence';
import { ProblemDetailsFilter } from './problem-details.filter';
import { ProblemException } from './problem.exception';

function fakeHost() {
  const sent: { status?: number; type?: string; body?: string; headers: Record<string, string> } = { headers: {} };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => {
      sent.headers[name] = value;
      if (name.toLowerCase() === 'content-type') sent.type = value;
    },
    status(code: number) {
      sent.status = code;
      return this;
    },
    type(value: string) {
      sent.type = value;
      return this;
    },
    send(body: string | Buffer) {
      sent.body = String(body);
      return this;
    },
  };
  const req = { originalUrl: '/api/thing?x=1', id: 'req-123' };
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  return { host, sent, json: () => JSON.parse(sent.body ?? '{}') };
}

describe('ProblemDetailsFilter', () => {
  const filter = new ProblemDetailsFilter();
  beforeAll(() => jest.spyOn((filter as unknown as { logger: { error: () => void } }).logger, 'error').mockImplementation(() => undefined));

  it('answers an unexpected error with a bare 500: no message, stack or path leaks', () => {
    const { host, sent, json } = fakeHost();
    const error = new Error('connect ECONNREFUSED at /srv/mailproof/libs/secret.ts:12');
    filter.catch(error, host);
    expect(sent.status).toBe(500);
    expect(sent.type).toBe('application/problem+json');
    expect(json()).toEqual({
      type: 'https://mailproof.dev/problems/internal-error',
      title: 'Internal Server Error',
      status: 500,
      detail: 'An unexpected error occurred. It has been logged.',
      code: 'internal_error',
      instance: '/api/thing',
      requestId: 'req-123',
    });
    expect(sent.body).not.toMatch(/ECONNREFUSED|\/srv|secret|at /);
  });

  it('answers PostgreSQL being unavailable with 503 service_unavailable and Retry-After, nothing leaked', () => {
    jest.spyOn((filter as unknown as { logger: { warn: () => void } }).logger, 'warn').mockImplementation(() => undefined);
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      new Error('Connection terminated unexpectedly'),
    ]) {
      const { host, sent, json } = fakeHost();
      filter.catch(error, host);
      expect(sent.status).toBe(503);
      expect(sent.headers['Retry-After']).toBe('5');
      expect(json()).toMatchObject({ code: 'service_unavailable', status: 503, detail: 'The database is unavailable; retry shortly.', requestId: 'req-123' });
      expect(sent.body).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|administrator|terminated/);
    }
  });

  it('keeps the stable code, extensions and headers of a ProblemException', () => {
    const { host, sent, json } = fakeHost();
    filter.catch(new ProblemException('rate_limited', 'slow down', { headers: { 'Retry-After': '7' }, limit: 3 }), host);
    expect(sent.status).toBe(429);
    expect(sent.headers['Retry-After']).toBe('7');
    expect(json()).toMatchObject({ code: 'rate_limited', detail: 'slow down', limit: 3, status: 429 });
    expect(json()).not.toHaveProperty('headers');
  });

  it('maps Nest HTTP exceptions to codes by status', () => {
    const notFound = fakeHost();
    filter.catch(new NotFoundException('Cannot GET /x'), notFound.host);
    expect(notFound.json()).toMatchObject({ status: 404, code: 'not_found', detail: 'Cannot GET /x' });
    const bad = fakeHost();
    filter.catch(new BadRequestException(['a is wrong', 'b is wrong']), bad.host);
    expect(bad.json()).toMatchObject({ status: 400, code: 'validation_failed', detail: 'a is wrong; b is wrong' });
  });

  it('answers a data key the key ring cannot unwrap with 503 naming the missing key id, no stack', () => {
    // The ring's own error, from a data key wrapped under "old-2025" by a ring that no longer holds it.
    const before = new DataKeyring([{ id: 'old-2025', key: Buffer.alloc(32, 1) }]);
    const { kekId, wrapped } = before.wrap('dk-1', 'account-1', Buffer.alloc(32, 7));
    let error: unknown;
    try {
      new DataKeyring([{ id: 'new-2026', key: Buffer.alloc(32, 2) }]).unwrap('dk-1', 'account-1', kekId, wrapped);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DataKeyringError);
    const { host, sent, json } = fakeHost();
    filter.catch(error, host);
    expect(sent.status).toBe(503);
    expect(sent.type).toBe('application/problem+json');
    expect(json()).toMatchObject({ status: 503, code: 'service_unavailable', keyId: 'old-2025' });
    expect(json().detail).toContain('"old-2025"');
    expect(sent.headers['Retry-After']).toBeDefined();
    expect(sent.body).not.toMatch(/at |\.ts:|new-2026/);
  });

  it('answers a write for an account erased meanwhile (its data key cannot be created) with 401', () => {
    const { host, sent, json } = fakeHost();
    filter.catch(new AccountGoneError('0b6f6c3e-0000-4000-8000-000000000000'), host);
    expect(sent.status).toBe(401);
    expect(json()).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(sent.headers['WWW-Authenticate']).toContain('Bearer');
    expect(sent.body).not.toContain('0b6f6c3e');
  });
});
