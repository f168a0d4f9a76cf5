import { QueryFailedError } from 'typeorm';
import { databasePortOf, isStoreUnavailable } from './store-unavailable';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['an administrator shutdown (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting up or shutting down (57P03)', withCode('the database system is shutting down', '57P03')],
    ['a connection exception (class 08)', withCode('connection failure', '08006')],
    ['a connection cut mid-query', new Error('Connection terminated unexpectedly')],
    ['the pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a QueryFailedError around 57P01', new QueryFailedError('SELECT 1', [], withCode('terminating connection due to administrator command', '57P01'))],
    ['an error whose cause is a refused connection', new Error('store failed', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') })],
  ])('true for %s', (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], withCode('duplicate key value violates unique constraint', '23505'))],
    ['a syntax error', withCode('syntax error at or near "SELEC"', '42601')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('false for %s', (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });

  it('with the database port known, counts a refused connection only when it is that port', () => {
    const refused = (port: number) => Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), { code: 'ECONNREFUSED', port });
    expect(isStoreUnavailable(refused(5432), 5432)).toBe(true);
    // spamd (783) or a link's server down is that step's fault, not the store's.
    expect(isStoreUnavailable(refused(783), 5432)).toBe(false);
    expect(isStoreUnavailable(new Error('spam check failed', { cause: refused(783) }), 5432)).toBe(false);
    // A socket error without a port (a connection cut mid-query) still counts.
    expect(isStoreUnavailable(withCode('read ECONNRESET', 'ECONNRESET'), 5432)).toBe(true);
    // SQLSTATEs never carry a port.
    expect(isStoreUnavailable(withCode('the database system is starting up', '57P03'), 5432)).toBe(true);
  });

  it('reads the database port from the URL', () => {
    expect(databasePortOf('postgres://postgres@127.0.0.1:5433/test')).toBe(5433);
    expect(databasePortOf('postgres://postgres@db/test')).toBe(5432);
    expect(databasePortOf('not a url')).toBeUndefined();
  });
});
