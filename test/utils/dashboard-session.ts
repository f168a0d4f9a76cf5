import request from 'supertest';

/** The `Set-Cookie` value of the named cookie in a response, attributes included. */
export function setCookie(res: request.Response, name: string): string | undefined {
  return ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));
}

/** The CSRF token of a dashboard page's form. */
export function csrfIn(text: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
  if (!token) throw new Error('no CSRF field on the page');
  return token;
}

/**
 * Signs in to the dashboard over HTTP as the sign-in form does. `ip` goes as X-Forwarded-For (sign-in attempts are
 * limited per client IP; a test API that trusts loopback believes it). Returns the session cookie (`name=value`)
 * and the whole `Set-Cookie` value.
 */
export async function signInToDashboard(apiUrl: string, key: string, ip?: string): Promise<{ cookie: string; setCookie: string }> {
  const withIp = (test: request.Test) => (ip ? test.set('X-Forwarded-For', ip) : test);
  const form = await withIp(request(apiUrl).get('/app/sign-in')).expect(200);
  const formCookie = setCookie(form, 'mp_sign_in')!.split(';')[0];
  const res = await withIp(request(apiUrl).post('/app/sign-in'))
    .set('Cookie', formCookie)
    .type('form')
    .send({ _csrf: csrfIn(form.text), key });
  if (res.status !== 303 || res.headers.location !== '/app') throw new Error(`sign-in answered ${res.status} (location ${res.headers.location})`);
  const session = setCookie(res, 'mp_session');
  if (!session) throw new Error('sign-in set no session cookie');
  return { cookie: session.split(';')[0], setCookie: session };
}
