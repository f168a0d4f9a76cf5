import { generateKeyPairSync } from 'node:crypto';
import { dkimSign } from 'mailauth/lib/dkim/sign';
import { verifyDkimSignatures } from './dkim-verifier.adapter';

describe("verifyDkimSignatures (mailauth over the audits' key records)", () => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const record = `v=DKIM1; k=rsa; p=${keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
  const message =
    'From: news@acme.example\r\nSubject: October\r\nMessage-ID: <1@acme.example>\r\nContent-Type: text/html\r\n\r\n<p>Three things changed.</p>\r\n';
  let signed: string;

  beforeAll(async () => {
    const signature = await dkimSign(message, {
      signatureData: [{ signingDomain: 'acme.example', selector: 's1', privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }],
    } as never);
    signed = signature.signatures + message;
  });

  const name = 's1._domainkey.acme.example';

  it('pass with the published key', async () => {
    expect(await verifyDkimSignatures(signed, new Map([[name, [record]]]))).toEqual([
      { domain: 'acme.example', selector: 's1', result: 'pass', message: 'pass' },
    ]);
  });

  it('a body changed after signing is a failure (mailauth says neutral, "body hash did not verify")', async () => {
    const [check] = await verifyDkimSignatures(signed.replace('Three', 'Four'), new Map([[name, [record]]]));
    expect(check).toMatchObject({ result: 'fail', message: expect.stringContaining('body hash did not verify') });
  });

  it('no key published is neutral; a lookup that failed or was never made is temperror', async () => {
    expect((await verifyDkimSignatures(signed, new Map([[name, []]])))[0].result).toBe('neutral');
    expect((await verifyDkimSignatures(signed, new Map([[name, null]])))[0].result).toBe('temperror');
    expect((await verifyDkimSignatures(signed, new Map()))[0].result).toBe('temperror');
  });

  it('an unsigned message has no signature to report', async () => {
    expect(await verifyDkimSignatures(message, new Map())).toEqual([]);
  });
});
