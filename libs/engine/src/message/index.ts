// Whole messages (format "eml", docs/messages.md): parsing with its bounds, and the message report.
export type * from './message-report';
export { parseMessage } from './parse-message';
export type { DecodedBodyPart, MessagePart, ParsedMessage, RawHeaderField, ResourcePart } from '../parse/parsed-message';
export { headerValue, parseStructured, scanMessage } from './scan-message';
export type { MessageRejection, MessageSkeleton, ScannedPart } from './scan-message';
export { evaluateAlignment, organizationalDomain } from './alignment';
export type { AlignmentMode } from './alignment';
export { readMessageFacts } from './message-facts';
export type { DkimSignatureTags, MessageFacts } from './message-facts';
export { authenticationPlan, evaluateAuthentication, MAX_AUTHENTICATION_DOMAINS } from './authentication-report';
export type { AuthenticationPlan, MessageAuthenticationInput } from './authentication-report';
export { buildMessageReport } from './build-message-report';
export type { MessageReportOptions } from './build-message-report';
