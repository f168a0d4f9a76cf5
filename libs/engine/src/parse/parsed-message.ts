// The shape of a parsed message (message/parse-message.ts parses it): plain data, so compile results can name it
// without reaching up into the message folder.

/** One header field as written: the name in lower case, the value unfolded (continuation lines joined), otherwise raw. */
export interface RawHeaderField {
  name: string;
  value: string;
}

/** A part of a message that is not its body, as the message report lists it (an attachment or an inline image). */
export interface MessagePart {
  /** Path in the MIME tree, `1.2` style (RFC 3501 part numbers). */
  path: string;
  contentType: string;
  charset: string | null;
  transferEncoding: string | null;
  disposition: 'inline' | 'attachment' | null;
  filename: string | null;
  contentId: string | null;
  /** Decoded size in bytes. */
  bytes: number;
}

/** A decoded body part: the HTML analyzed as the email, or the text/plain alternative. */
export interface DecodedBodyPart {
  path: string;
  charset: string | null;
  /** Decoded and converted from its charset to a string. */
  content: string;
  /** UTF-8 bytes of `content`. */
  bytes: number;
}

/** A leaf part that is not the body: an attachment or an inline resource. */
export interface ResourcePart extends MessagePart {
  /** Inside a multipart/related with a Content-ID: a resource the HTML may show by `cid:`. */
  related: boolean;
}

/**
 * A message as the engine reads it (plain data, so it crosses threads and processes): the top-level
 * fields as written, the decoded HTML and text bodies, and every other leaf part.
 */
export interface ParsedMessage {
  /** Top-level header fields in order, names lower case, values unfolded and undecoded. */
  headers: RawHeaderField[];
  /** The subject with its RFC 2047 encoded words decoded; null when there is no Subject field. */
  subject: string | null;
  html: DecodedBodyPart;
  text: DecodedBodyPart | null;
  resources: ResourcePart[];
  /** The MIME type of every part, containers included, by path (for the report's part listing). */
  structure: Array<{ path: string; contentType: string }>;
}
