// Whole messages (format "eml", docs/messages.md): parsing with its bounds, and the message report's shape.
export type * from './message-report';
export { parseMessage } from './parse-message';
export type { DecodedBodyPart, ParsedMessage, ResourcePart } from './parse-message';
export { headerValue, parseStructured, scanMessage } from './scan-message';
export type { MessageRejection, MessageSkeleton, RawHeaderField, ScannedPart } from './scan-message';
