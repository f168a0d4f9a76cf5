export type EmailFormat = 'html' | 'jsx' | 'mjml' | 'maizzle';

export const EMAIL_FORMATS: readonly EmailFormat[] = ['html', 'jsx', 'mjml', 'maizzle'];

export interface CodeFix {
  before: string;
  after: string;
  language: 'html' | 'css' | 'jsx' | 'mjml' | 'maizzle' | 'js';
  description: string;
}
