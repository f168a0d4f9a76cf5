import PostalMime from 'postal-mime';
import { parsedLeaves, PostalMimeChanged, structuredHeaderReader } from './postal-mime-internals';

// What the message checks read inside postal-mime (its public API does not give it). An upgrade that moves
// either fails here first, by name, instead of quietly reading another tree.
describe("postal-mime's internals, read through one adapter", () => {
  it('reads a structured field as postal-mime does: comments out, the first repeated parameter wins, RFC 2231 joined', () => {
    const reader = structuredHeaderReader();
    const parsed = reader.parseStructuredHeader('Multipart/Alternative (a comment); boundary="b1"; boundary=b2; title*0=Hello; title*1=World');
    expect(parsed.value.trim().toLowerCase()).toBe('multipart/alternative');
    expect(parsed.params.boundary).toBe('b1');
    expect(parsed.params.title).toBe('HelloWorld');
  });

  it("lists a parsed message's leaves in document order, each decoding its own content", async () => {
    const message = [
      'From: a@example.com',
      'Content-Type: multipart/mixed; boundary=outer',
      '',
      '--outer',
      'Content-Type: multipart/alternative; boundary=inner',
      '',
      '--inner',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'caf=C3=A9',
      '--inner',
      'Content-Type: text/html; charset=iso-8859-1',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('<p>na\xefve</p>', 'latin1').toString('base64'),
      '--inner--',
      '--outer',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'third',
      '--outer--',
      '',
    ].join('\r\n');
    const parser = new PostalMime();
    await parser.parse(message);
    expect(parsedLeaves(parser).map((leaf) => leaf.getTextContent().trim())).toEqual(['café', '<p>naïve</p>', 'third']);
  });

  it('names the change when the parser no longer keeps its tree where the adapter reads it', () => {
    const withoutTree: PostalMime = Object.create(PostalMime.prototype);
    expect(() => parsedLeaves(withoutTree)).toThrow(PostalMimeChanged);
  });
});
