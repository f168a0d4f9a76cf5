import { withDeadline } from './deadline';

describe('withDeadline', () => {
  it('settles like the work when it finishes first', async () => {
    await expect(withDeadline(Promise.resolve('done'), 1_000, () => new Error('late'))).resolves.toBe('done');
    await expect(withDeadline(Promise.reject(new Error('refused')), 1_000, () => new Error('late'))).rejects.toThrow('refused');
  });

  it('rejects with the deadline error when the work never settles', async () => {
    await expect(withDeadline(new Promise<never>(() => undefined), 20, () => new Error('no answer within 20 ms'))).rejects.toThrow('no answer within 20 ms');
  });
});
