import type { MailproofConfig } from '@mailproof/config';
import type { GateRunRepository, PreviewRepository } from '@mailproof/persistence';
import type { AnalysisPool } from './analysis/analysis-pool';
import type { MessageAuthenticationService } from './message/message-authentication.service';
import { PreviewAnalysisService } from './preview-analysis.service';
import type { PreviewChecksService } from './preview-checks.service';

describe('PreviewAnalysisService.recordFinalFailure', () => {
  it('stores the failure on the preview and ends the gate run waiting on it (its later steps never run)', async () => {
    const stored: unknown[] = [];
    const ended: unknown[] = [];
    const previews = { storeOutcome: async (id: string, outcome: unknown) => void stored.push([id, outcome]) } as unknown as PreviewRepository;
    const gateRuns = { failForPreview: async (id: string, failure: unknown) => (ended.push([id, failure]), 1) } as unknown as GateRunRepository;
    const service = new PreviewAnalysisService(
      previews,
      {} as PreviewChecksService,
      {} as AnalysisPool,
      {} as MailproofConfig,
      gateRuns,
      {} as MessageAuthenticationService,
    );
    jest.spyOn((service as unknown as { logger: { warn: () => void } }).logger, 'warn').mockImplementation(() => undefined);
    await service.recordFinalFailure('prv_abc', 'stalled');
    const failure = { code: 'internal_error', message: 'The analysis stopped its worker twice (crashed or froze) and was not tried again.' };
    expect(stored).toEqual([['prv_abc', { failure }]]);
    expect(ended).toEqual([['prv_abc', failure]]);
  });
});
