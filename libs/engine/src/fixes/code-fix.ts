/** `eml`: a whole RFC 5322 message whose HTML part is the email (docs/messages.md). */
export type EmailFormat = 'html' | 'jsx' | 'mjml' | 'maizzle' | 'eml';

export const EMAIL_FORMATS: readonly EmailFormat[] = ['html', 'jsx', 'mjml', 'maizzle', 'eml'];

export interface CodeFix {
  before: string;
  after: string;
  language: 'html' | 'css' | 'jsx' | 'mjml' | 'maizzle' | 'js';
  description: string;
}
