import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type {
  AltTextFailure,
  BlockingSeverity,
  BulkSenderFailure,
  ClientErrorsFailure,
  GateCheckFamily,
  GateLinks,
  MessageNote,
  GateSuggestedFix,
  GateSuggestedFixPending,
  GateSuggestedFixRequest,
  GateVerdictBaseline,
  GateVerdictResult,
  LinkFailureReason,
  LinksFailure,
  LinkUnreachableFailure,
  SizeFailure,
  StoredFailure,
  ThresholdFailure,
  UncheckedLinkReason,
  VisualNote,
  VisualRegion,
  VisualRegressionFailure,
  VisualScheme,
  WorseThanBaselineFailure,
} from '@mailproof/contracts';
import { GATE_CHECK_FAMILIES } from '@mailproof/contracts';
import { BULK_SENDER_REQUIREMENT_IDS, CLIENT_IDS, EMAIL_FORMATS, type BulkSenderRequirementId, type ClientId, type EmailFormat } from '@mailproof/engine';
import type { GateRunListItem } from '@mailproof/persistence';

// One class per failure kind, each implementing the engine's failure type (through contracts), so a field
// a failure gains or loses fails to compile here until the OpenAPI document says so too.

class ThresholdFailureResponse implements ThresholdFailure {
  @ApiProperty({ enum: ['compatibility'] }) family: 'compatibility';
  @ApiProperty({ enum: ['threshold'] }) check: 'threshold';
  @ApiProperty() clientId: string;
  @ApiProperty({ minimum: 0, maximum: 100 }) score: number;
  @ApiProperty({ minimum: 0, maximum: 100 }) threshold: number;
}

class ClientErrorsFailureResponse implements ClientErrorsFailure {
  @ApiProperty({ enum: ['compatibility'] }) family: 'compatibility';
  @ApiProperty({ enum: ['client-errors'] }) check: 'client-errors';
  @ApiProperty() clientId: string;
  @ApiProperty({ description: 'Distinct error findings of the client.' }) errors: number;
}

class LinksFailureResponse implements LinksFailure {
  @ApiProperty({ enum: ['content'] }) family: 'content';
  @ApiProperty({ enum: ['links'] }) check: 'links';
  @ApiProperty() href: string;
  @ApiProperty({ enum: ['empty', 'javascript', 'placeholder'] }) reason: LinkFailureReason;
}

class SizeFailureResponse implements SizeFailure {
  @ApiProperty({ enum: ['content'] }) family: 'content';
  @ApiProperty({ enum: ['size'] }) check: 'size';
  @ApiProperty() bytes: number;
  @ApiProperty({ description: 'The size at which Gmail clips the email.' }) limit: number;
}

class AltTextFailureResponse implements AltTextFailure {
  @ApiProperty({ enum: ['content'] }) family: 'content';
  @ApiProperty({ enum: ['alt-text'] }) check: 'alt-text';
  @ApiProperty() src: string;
}

class LinkUnreachableFailureResponse implements LinkUnreachableFailure {
  @ApiProperty({ enum: ['content'] }) family: 'content';
  @ApiProperty({ enum: ['link-unreachable'] }) check: 'link-unreachable';
  @ApiProperty() url: string;
  @ApiProperty({ description: 'The 4xx or 5xx status the link answered.' }) status: number;
}

class WorseThanBaselineFailureResponse implements WorseThanBaselineFailure {
  @ApiProperty({ enum: ['regression'] }) family: 'regression';
  @ApiProperty({ enum: ['worse-than-baseline'] }) check: 'worse-than-baseline';
  @ApiPropertyOptional() clientId?: string;
  @ApiPropertyOptional({ description: 'The CSS property, value, at-rule, selector or element.' }) property?: string;
  @ApiPropertyOptional({ description: 'Stable rule id: the caniemail slug, or `unknown-property`.' }) rule?: string;
  @ApiProperty({ enum: ['error', 'warning'] }) severity: BlockingSeverity;
}

class BulkSenderFailureResponse implements BulkSenderFailure {
  @ApiProperty({ enum: ['message'] }) family: 'message';
  @ApiProperty({ enum: ['bulk-sender'] }) check: 'bulk-sender';
  @ApiProperty({ enum: BULK_SENDER_REQUIREMENT_IDS, description: "The unmet Gmail/Yahoo bulk-sender requirement (the message report's bulkSender checklist)." })
  requirement: BulkSenderRequirementId;
  @ApiProperty({ description: 'Why the requirement is not met.' }) reason: string;
  @ApiProperty({ nullable: true, type: String, description: 'What to change.' }) fix: string | null;
}

class VisualBoxResponse {
  @ApiProperty({ description: 'CSS px from the left of the page.' }) x: number;
  @ApiProperty({ description: 'CSS px from the top of the page.' }) y: number;
  @ApiProperty() width: number;
  @ApiProperty() height: number;
}

class VisualElementResponse {
  @ApiProperty({ example: 'body > table > tr:nth-child(2) > td.columns', description: "A selector path of the author's element." }) selector: string;
  @ApiProperty({ nullable: true, type: Number, description: "Its line in the author's source; null when unknown." }) line: number | null;
}

class VisualCauseResponse {
  @ApiProperty({ example: 'the two columns stack: `display:flex` is removed' }) message: string;
  @ApiPropertyOptional() property?: string;
  @ApiPropertyOptional({ description: 'The client behaviour that explains it (docs/clients.md).' }) behaviour?: string;
}

class VisualRegionResponse implements VisualRegion {
  @ApiProperty({ description: 'The region in page coordinates (CSS px).' }) box: VisualBoxResponse;
  @ApiProperty({ enum: ['layout', 'color'], description: '`layout`: an element moved or resized; `color`: the same boxes painted differently.' })
  kind: 'layout' | 'color';
  @ApiProperty({ type: [VisualElementResponse], description: 'The elements under the region (at most 5).' }) elements: VisualElementResponse[];
  @ApiPropertyOptional({ description: 'The client behaviour or finding that explains the region, when one does.' }) cause?: VisualCauseResponse;
}

class VisualRegressionFailureResponse implements VisualRegressionFailure {
  @ApiProperty({ enum: ['visual'] }) family: 'visual';
  @ApiProperty({ enum: ['divergence'] }) check: 'divergence';
  @ApiProperty({ description: 'The client whose rendering this version broke.' }) clientId: string;
  @ApiProperty({ enum: ['light', 'dark'] }) scheme: VisualScheme;
  @ApiProperty({ minimum: 0, maximum: 100, description: "This version's divergence of the client from the reference rendering (0 = identical)." })
  score: number;
  @ApiProperty({ minimum: 0, maximum: 100, description: "The baseline's divergence of the same client and scheme." }) baselineScore: number;
  @ApiProperty({ minimum: 0, maximum: 100, description: 'The growth allowed (visualThreshold); score - baselineScore above it fails.' }) threshold: number;
  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      'Percent of the reference rendering that changed between the two versions (it changed little: the change broke the client); null when it could not be compared.',
  })
  referenceChange: number | null;
  @ApiProperty({
    type: [VisualRegionResponse],
    description: "The regions this version added, largest first (at most 5); all of the client's when it added none.",
  })
  regions: VisualRegionResponse[];
}

class MessageNoteResponse implements MessageNote {
  @ApiProperty({ enum: ['message'] }) family: 'message';
  @ApiProperty({ enum: ['bulk-sender'] }) check: 'bulk-sender';
  @ApiPropertyOptional({ enum: BULK_SENDER_REQUIREMENT_IDS, description: 'The requirement the note is about; absent when it is about the whole check.' })
  requirement?: BulkSenderRequirementId;
  @ApiProperty({ example: 'not a message: nothing to check' }) reason: string;
}

class VisualNoteResponse implements VisualNote {
  @ApiProperty({ enum: ['visual'] }) family: 'visual';
  @ApiProperty({ enum: ['divergence'] }) check: 'divergence';
  @ApiPropertyOptional({ description: 'The client the note is about; absent when it is about the whole check.' }) clientId?: string;
  @ApiPropertyOptional({ enum: ['light', 'dark'] }) scheme?: VisualScheme;
  @ApiProperty({ example: 'no visual baseline for this ref yet: this version is the first one measured' }) reason: string;
}

const NOTE_RESPONSES = { message: MessageNoteResponse, visual: VisualNoteResponse };
type GateNoteResponse = MessageNoteResponse | VisualNoteResponse;

const FAILURE_RESPONSES = {
  threshold: ThresholdFailureResponse,
  'client-errors': ClientErrorsFailureResponse,
  links: LinksFailureResponse,
  size: SizeFailureResponse,
  'alt-text': AltTextFailureResponse,
  'link-unreachable': LinkUnreachableFailureResponse,
  'worse-than-baseline': WorseThanBaselineFailureResponse,
  'bulk-sender': BulkSenderFailureResponse,
  divergence: VisualRegressionFailureResponse,
};
type GateFailureResponse = InstanceType<(typeof FAILURE_RESPONSES)[keyof typeof FAILURE_RESPONSES]>;

class GateBaselineResponse implements GateVerdictBaseline {
  @ApiProperty({ nullable: true, type: String, description: "The request's ref; null without one." }) ref: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Creation time (ISO 8601) of the stored baseline compared with; null when no comparison happened.',
  })
  comparedTo: string | null;
}

class UncheckedLinkResponse {
  @ApiProperty() url: string;
  @ApiProperty({ enum: ['cap', 'budget', 'declined', 'error'] }) reason: UncheckedLinkReason;
}

class GateLinksResponse implements GateLinks {
  @ApiProperty({ description: 'Whether links were fetched (resolveLinks).' }) resolved: boolean;
  @ApiProperty({ description: 'How many distinct links answered.' }) checked: number;
  @ApiProperty({ type: [UncheckedLinkResponse], description: 'Links that could not be checked; they never fail the gate.' }) unchecked: UncheckedLinkResponse[];
}

class SuggestedFixBodyResponse {
  @ApiProperty({ enum: EMAIL_FORMATS }) format: EmailFormat;
  @ApiProperty({ enum: CLIENT_IDS, isArray: true, description: 'The clients the gate checked.' }) clients: ClientId[];
  @ApiProperty({ enum: ['safe'], isArray: true }) tiers: ['safe'];
}

class SuggestedFixRequestResponse implements GateSuggestedFixRequest {
  @ApiProperty({ enum: ['POST'] }) method: 'POST';
  @ApiProperty({ enum: ['/api/fix'] }) path: '/api/fix';
  @ApiProperty({
    description: 'The body of POST /api/fix without the email: add `html` (and `files`) as sent to the gate (for a `url` run, the email at that URL).',
  })
  body: SuggestedFixBodyResponse;
}

class SuggestedFixResponse implements GateSuggestedFix {
  @ApiProperty({ minimum: 1, description: 'Findings of the email that the safe fixes resolve, each proven by re-analysis.' }) fixable: number;
  @ApiProperty() request: SuggestedFixRequestResponse;
}

class SuggestedFixPendingResponse implements GateSuggestedFixPending {
  @ApiProperty({ enum: [true], description: 'Still being computed after the verdict: GET /api/gate/runs/:id carries it once known.' }) pending: true;
}

/**
 * The gate verdict (POST /api/gate; GET /api/gate/runs/:id's `verdict`). It implements the contract's
 * `GateVerdictResult`, the type the verdict step stores and the CLI reads.
 */
@ApiExtraModels(...Object.values(FAILURE_RESPONSES), ...Object.values(NOTE_RESPONSES), SuggestedFixResponse, SuggestedFixPendingResponse)
export class GateVerdictResponse implements GateVerdictResult {
  @ApiProperty({ description: 'The verdict: false when any check failed (still HTTP 200).' }) passed: boolean;
  @ApiProperty({ minimum: 0, maximum: 100, description: 'Mean score of the checked clients.' }) overallScore: number;
  @ApiProperty({ nullable: true, type: String, description: 'The lowest-scoring checked client; null with none checked.' }) worstClient: string | null;
  @ApiProperty() baseline: GateBaselineResponse;
  @ApiProperty({
    type: 'array',
    items: {
      oneOf: Object.values(FAILURE_RESPONSES).map((failure) => ({ $ref: getSchemaPath(failure) })),
      discriminator: {
        propertyName: 'check',
        mapping: Object.fromEntries(Object.entries(FAILURE_RESPONSES).map(([check, failure]) => [check, getSchemaPath(failure)])),
      },
    },
    description: 'Why the verdict failed, in family order (compatibility, content, regression, message, visual); empty when it passed.',
  })
  failures: GateFailureResponse[];
  @ApiPropertyOptional({
    type: 'array',
    items: {
      oneOf: Object.values(NOTE_RESPONSES).map((note) => ({ $ref: getSchemaPath(note) })),
      discriminator: {
        propertyName: 'family',
        mapping: Object.fromEntries(Object.entries(NOTE_RESPONSES).map(([family, note]) => [family, getSchemaPath(note)])),
      },
    },
    description:
      'Why a check passed without judging everything: the message check on an email that is not a message, on mail that is not bulk, or a requirement a failed lookup left undecided; the visual check with no visual baseline yet, or a growth that came with a changed design. Never blocks; absent on verdicts stored before notes existed.',
  })
  notes?: GateNoteResponse[];
  @ApiProperty({ enum: GATE_CHECK_FAMILIES, isArray: true, description: 'The check families that ran.' }) checks: GateCheckFamily[];
  @ApiProperty() links: GateLinksResponse;
  @ApiPropertyOptional({
    oneOf: [{ $ref: getSchemaPath(SuggestedFixResponse) }, { $ref: getSchemaPath(SuggestedFixPendingResponse) }],
    description:
      'On a failed verdict whose email the safe fixes improve: how many findings they resolve and the POST /api/fix request that applies them. `{ "pending": true }` while it is computed after the verdict (POST /api/gate answers before it is known; GET /api/gate/runs/:id carries it then).',
  })
  suggestedFix?: SuggestedFixResponse | SuggestedFixPendingResponse;
  @ApiProperty({ example: 'gtr_3kTq9xV2bN7mLp4Rz8sWc1Ya' }) runId: string;
  @ApiProperty({ nullable: true, type: String, description: 'The analyzed email, saved as a preview of the account; null once that preview was deleted.' })
  previewId: string | null;
}

class GateRunFailureResponse implements StoredFailure {
  @ApiProperty({ example: 'compile_failed' }) code: string;
  @ApiProperty() message: string;
  @ApiPropertyOptional({ description: 'compile_failed of a message (format eml): what is wrong with it, e.g. not_a_message, too_many_parts.' }) reason?: string;
  @ApiPropertyOptional() line?: number;
  @ApiPropertyOptional() column?: number;
}

/** GET /api/gate/runs/:id: the run, with its verdict once completed or why it ended without one. */
export class GateRunResponse {
  @ApiProperty() id: string;
  @ApiProperty({ nullable: true, type: String }) ref: string | null;
  @ApiProperty({ enum: ['running', 'completed', 'failed'] }) status: 'running' | 'completed' | 'failed';
  @ApiProperty({ nullable: true, type: String }) previewId: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty({ nullable: true, type: String }) completedAt: string | null;
  @ApiPropertyOptional({ type: GateVerdictResponse, description: 'Present when the run completed.' }) verdict?: GateVerdictResponse;
  @ApiPropertyOptional({
    type: GateRunFailureResponse,
    nullable: true,
    description: 'Present when the run did not complete: why it failed, null while it runs.',
  })
  failure?: GateRunFailureResponse | null;
}

class GateRunListItemResponse implements GateRunListItem {
  @ApiProperty() id: string;
  @ApiProperty({ nullable: true, type: String }) ref: string | null;
  @ApiProperty({ enum: ['running', 'completed', 'failed'] }) status: 'running' | 'completed' | 'failed';
  @ApiProperty({ nullable: true, type: Boolean }) passed: boolean | null;
  @ApiProperty({ nullable: true, type: Number }) overallScore: number | null;
  @ApiProperty({ nullable: true, type: String }) previewId: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'How many failures the verdict has; null without a verdict.' }) failures: number | null;
  @ApiProperty() createdAt: string;
  @ApiProperty({ nullable: true, type: String }) completedAt: string | null;
}

/** GET /api/gate/runs: a page of the account's runs, newest first. */
export class GateRunListResponse {
  @ApiProperty({ type: [GateRunListItemResponse] }) runs: GateRunListItemResponse[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() total: number;
}
