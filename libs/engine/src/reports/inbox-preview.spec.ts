import { INBOX_LIMITS } from '../clients/inbox-limits';
import { email, reports, rules } from './testing/email-fixture';

const ALL = Object.keys(INBOX_LIMITS);

function inbox(body: string, parts = {}, clients: string[] = ALL) {
  return reports(email(body, parts), { clients }).inboxPreview;
}

describe('inboxPreview', () => {
  it('reads the subject from <title> and the preheader from the hidden preview text, stopping at its padding', () => {
    const padding = '&zwnj;&nbsp;'.repeat(40);
    const report = inbox(
      `<div style="display:none;max-height:0;overflow:hidden">Exports are faster and the calendar is new.${padding}</div><p>Body text that must not leak.</p>`,
    );
    expect(report).toMatchObject({
      subject: 'Your March update',
      preheader: 'Exports are faster and the calendar is new.',
      sender: null,
      preheaderSource: 'hidden',
    });
    expect(report.issues).toEqual([]);
  });

  it('truncates per client as its inbox list does, by user-perceived characters', () => {
    const subject = 'A subject line long enough to be cut by phones but not by desktop lists 🎉';
    const report = inbox('<p>Short body.</p>', { title: subject });
    expect(report.clients['gmail-android'].subject).toHaveLength(INBOX_LIMITS['gmail-android'].subject);
    expect(report.clients['gmail-android']).toMatchObject({ subjectTruncated: true, subjectLimit: 40 });
    expect(report.clients['gmail-android'].subject?.endsWith('…')).toBe(true);
    expect(report.clients['apple-mail-macos']).toMatchObject({ subject, subjectTruncated: false });
    expect(report.subjectLength).toBe([...new Intl.Segmenter().segment(subject)].length);
    expect(rules(report.issues)).toEqual(expect.arrayContaining(['subject-too-long', 'emoji-in-subject']));
  });

  it('shows no preview text where the client list has none, and only the requested clients', () => {
    const report = inbox('<p>Body text.</p>', {}, ['thunderbird', 'gmail-web']);
    expect(Object.keys(report.clients)).toEqual(['gmail-web', 'thunderbird']);
    expect(report.clients.thunderbird.preheader).toBeNull();
    expect(report.clients['gmail-web'].preheader).toBe('Body text. Acme Inc, 1600 Market Street, Suite 200, San Francisco, CA 94103. Unsubscribe');
  });

  it('falls back to body text and flags boilerplate preview text', () => {
    const report = inbox('<p><a href="https://acme.test/web">View this email in your browser</a></p><p>Hello</p>');
    expect(report.preheaderSource).toBe('body');
    expect(report.preheader?.startsWith('View this email in your browser Hello')).toBe(true);
    expect(rules(report.issues)).toEqual(expect.arrayContaining(['preheader-boilerplate', 'missing-preheader']));
  });

  it('flags an unpadded short hidden preheader and a missing subject', () => {
    expect(rules(inbox('<div style="display:none">Quick note</div><p>Body</p>').issues)).toEqual(['preheader-unpadded']);
    const untitled = inbox('<p>Body</p>', { title: null });
    expect(untitled.subject).toBeNull();
    expect(rules(untitled.issues)).toContain('missing-subject');
  });
});
