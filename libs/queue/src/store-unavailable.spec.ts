import { QueryFailedError } from 'typeorm';
import { isStoreUnavailable } from './store-unavailable';

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
});
