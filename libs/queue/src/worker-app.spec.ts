import { isLostRedisCommand } from './worker-app';

describe('isLostRedisCommand', () => {
  it('is true for the rejections ioredis gives commands lost with their connection', () => {
    const maxRetries = Object.assign(new Error('Reached the max retries per request limit (which is 0).'), { name: 'MaxRetriesPerRequestError' });
    expect(isLostRedisCommand(maxRetries)).toBe(true);
    expect(isLostRedisCommand(new Error('Connection is closed.'))).toBe(true);
  });

  it('is false for anything else, which still ends the process', () => {
    expect(isLostRedisCommand(new TypeError('cannot read properties of undefined'))).toBe(false);
    expect(isLostRedisCommand('Connection is closed.')).toBe(false);
    expect(isLostRedisCommand(undefined)).toBe(false);
  });
});
