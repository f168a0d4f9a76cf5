import type { Job } from 'bullmq';
import { jobSpanOptions, withTraceContext } from './job-tracing';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

function job(fields: { metadata?: string; attemptsMade?: number; repeatJobKey?: string; data?: unknown }): Job {
  return {
    id: 'preview.analyze-prv_1',
    name: 'preview.analyze',
    data: fields.data ?? { previewId: 'prv_1' },
    attemptsMade: fields.attemptsMade ?? 0,
    repeatJobKey: fields.repeatJobKey,
    opts: fields.metadata ? { telemetry: { metadata: fields.metadata } } : {},
  } as unknown as Job;
}

describe('a job attempt span: where it hangs', () => {
  it("joins its request's trace on the first attempt", () => {
    const options = jobSpanOptions(job({ metadata: TRACEPARENT }), 'preview');
    expect(options).toMatchObject({ kind: 'consumer', parent: TRACEPARENT });
    expect(options.links).toBeUndefined();
    expect(options.attributes).toMatchObject({ 'mailproof.job.attempt': 1, 'mailproof.preview_id': 'prv_1', 'messaging.destination.name': 'preview' });
  });

  it('starts a trace of its own, linked to the request, on a later attempt (one span per attempt, no trace spanning the retries)', () => {
    expect(jobSpanOptions(job({ metadata: TRACEPARENT, attemptsMade: 2 }), 'preview')).toMatchObject({
      parent: 'root',
      links: [TRACEPARENT],
      attributes: { 'mailproof.job.attempt': 3 },
    });
  });

  it('starts a linked trace of its own when queued in a sweep, and a plain one for job schedulers and untraced jobs', () => {
    expect(jobSpanOptions(job({ metadata: `link;${TRACEPARENT}` }), 'dns-audit')).toMatchObject({ parent: 'root', links: [TRACEPARENT] });
    const repeated = jobSpanOptions(job({ metadata: TRACEPARENT, repeatJobKey: 'domain-drift-sweep' }), 'scheduler');
    expect(repeated.parent).toBe('root');
    expect(repeated.links).toBeUndefined();
    expect(jobSpanOptions(job({}), 'preview').parent).toBe('root');
  });

  it('names gate runs by id and nothing else of the payload', () => {
    const attributes = jobSpanOptions(job({ data: { runId: 'gtr_1', html: '<p>secret</p>', email: 'a@example.org' } }), 'gate').attributes ?? {};
    expect(attributes['mailproof.gate_run_id']).toBe('gtr_1');
    expect(JSON.stringify(attributes)).not.toMatch(/secret|example\.org/);
  });

  it('adds no trace context outside a trace (and with tracing off)', () => {
    const options = { jobId: 'x', priority: 3 };
    expect(withTraceContext(options, 'parent')).toBe(options);
  });
});
