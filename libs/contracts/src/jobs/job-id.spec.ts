import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { jobId } from './job-id';

describe('jobId', () => {
  it('is the job name and its parts joined by "-", every character outside [A-Za-z0-9._-] turned into "_"', () => {
    // Literal expectations: an id that varied between calls (a timestamp, a random part) fails them.
    expect(jobId('preview.analyze', 'abc', 3)).toBe('preview.analyze-abc-3');
    expect(jobId('dns-audit.run', 'mail.example.com:443', 'a/b c')).toBe('dns-audit.run-mail.example.com_443-a_b_c');
    expect(jobId('render.shot', 'é', -1.5)).toBe('render.shot-_--1.5');
  });

  it('gives different units of work different ids (parts of letters and digits, any number of them, any length)', () => {
    const part = fc.stringMatching(/^[A-Za-z0-9]{1,120}$/);
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), fc.array(part, { minLength: 1, maxLength: 4 }), (a, b) => {
        fc.pre(a.join('/') !== b.join('/'));
        expect(jobId('preview.analyze', ...a)).not.toBe(jobId('preview.analyze', ...b));
      }),
    );
  });

  it('shortens an id over 200 characters to its first 160 and the SHA-256 of the whole', () => {
    const full = `preview.analyze-${'a'.repeat(300)}-1`;
    const digest = createHash('sha256').update(full).digest('hex').slice(0, 32);
    expect(jobId('preview.analyze', 'a'.repeat(300), 1)).toBe(`${full.slice(0, 160)}-${digest}`);
    expect(jobId('x', 'b'.repeat(198))).toHaveLength(200);
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
});
