import fc from 'fast-check';
import { jobId } from './job-id';

describe('jobId', () => {
  it('is deterministic and starts with the job name', () => {
    expect(jobId('preview.analyze', 'abc', 3)).toBe('preview.analyze-abc-3');
    expect(jobId('preview.analyze', 'abc', 3)).toBe(jobId('preview.analyze', 'abc', 3));
  });

  it('never contains ":" and is never integer-like, whatever the parts', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.oneof(fc.string(), fc.integer())), (name, parts) => {
        const id = jobId(name || 'x', ...parts);
        expect(id).not.toContain(':');
        expect(/^\d+$/.test(id)).toBe(false);
        expect(id.length).toBeLessThanOrEqual(200);
      }),
    );
  });

  it('turns a digits-only name with no parts into a non-integer id (fast-check found "0")', () => {
    expect(jobId('0')).toBe('job-0');
    expect(jobId('42', 7)).toBe('42-7');
  });

  it('keeps distinct long ids distinct', () => {
    const long = 'a'.repeat(300);
    expect(jobId('x', long, 1)).not.toBe(jobId('x', long, 2));
  });
});
