import { fixRunJob, gateSuggestFixJob, gateVerdictJob, previewAnalyzeJob } from '@mailproof/contracts';
import { jobNameOfId } from './metrics.service';

describe('the job name a job id names (job durations without reading the job)', () => {
  it('reads the name of every contracts-built id, the longest name first', () => {
    for (const request of [previewAnalyzeJob('prv_1'), gateVerdictJob('run-1'), gateSuggestFixJob('run-1'), fixRunJob('fix_1')]) {
      expect(jobNameOfId(request.jobId)).toBe(request.name);
    }
  });

  it('names no job for an id it did not build (a job scheduler repeat)', () => {
    expect(jobNameOfId('repeat:abc:1700000000000')).toBeUndefined();
    expect(jobNameOfId('preview.analyze')).toBeUndefined();
  });
});
