import type { Request, Response } from 'express';

/** The dashboard session's cookie: HttpOnly, SameSite=Lax, path /app, Secure when the request came over https. */
export const SESSION_COOKIE = 'mp_session';
/** Before sign-in there is no session to hold a CSRF token: the sign-in form double-submits this cookie's value. */
export const SIGN_IN_CSRF_COOKIE = 'mp_sign_in';

/** One cookie's value from the Cookie header (no library: two cookies of known, URL-safe shape). */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** https as the client saw it: the request itself (trust proxy decides X-Forwarded-Proto) or a public https base URL. */
function isHttps(req: Request, publicBaseUrl: string): boolean {
  return req.secure || publicBaseUrl.startsWith('https:');
}

export function setDashboardCookie(
  req: Request,
  res: Response,
  publicBaseUrl: string,
  name: string,
  value: string,
  maxAgeSeconds: number,
  path = '/app',
): void {
  res.cookie(name, value, { httpOnly: true, sameSite: 'lax', secure: isHttps(req, publicBaseUrl), path, maxAge: maxAgeSeconds * 1000 });
}

export function clearDashboardCookie(req: Request, res: Response, publicBaseUrl: string, name: string, path = '/app'): void {
  res.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure: isHttps(req, publicBaseUrl), path });
}
