import { CreateJobProbes1763769600000 } from './1763769600000-create-job-probes';
import { CreateAccounts1763769700000 } from './1763769700000-create-accounts';
import { CreateDeliverability1763769800000 } from './1763769800000-create-deliverability';
import { CreatePreviews1763769900000 } from './1763769900000-create-previews';
import { CreateGate1764028800000 } from './1764028800000-create-gate';
import { AddPreviewGateSummary1764032400000 } from './1764032400000-add-preview-gate-summary';
import { CreateScreenshots1764100000000 } from './1764100000000-create-screenshots';
import { InconclusiveDnsAudits1764115200000 } from './1764115200000-inconclusive-dns-audits';
import { AddDashboardIndexes1764115260000 } from './1764115260000-add-dashboard-indexes';
import { CreateWebhooks1764118800000 } from './1764118800000-create-webhooks';
import { AddPreviewFiles1764122400000 } from './1764122400000-add-preview-files';
import { CreateFixRuns1764201600000 } from './1764201600000-create-fix-runs';
import { EmlFormat1764390000000 } from './1764390000000-eml-format';
import { CreateAccountDataKeys1764400000000 } from './1764400000000-create-account-data-keys';
import { AccountData1764410000000 } from './1764410000000-account-data';
import { GateSuggestedFix1764500000000 } from './1764500000000-gate-suggested-fix';
import { UrlsAreCustomerData1796603425336 } from './1796603425336-urls-are-customer-data';
import { GateVisualBaseline1796700000000 } from './1796700000000-gate-visual-baseline';

/** Every migration, in order, as class references (file globs break under bundlers). */
export const MIGRATIONS = [
  CreateJobProbes1763769600000,
  CreateAccounts1763769700000,
  CreateDeliverability1763769800000,
  CreatePreviews1763769900000,
  CreateGate1764028800000,
  AddPreviewGateSummary1764032400000,
  CreateScreenshots1764100000000,
  InconclusiveDnsAudits1764115200000,
  AddDashboardIndexes1764115260000,
  CreateWebhooks1764118800000,
  AddPreviewFiles1764122400000,
  CreateFixRuns1764201600000,
  EmlFormat1764390000000,
  CreateAccountDataKeys1764400000000,
  AccountData1764410000000,
  GateSuggestedFix1764500000000,
  UrlsAreCustomerData1796603425336,
  GateVisualBaseline1796700000000,
];
