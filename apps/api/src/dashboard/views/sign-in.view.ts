import { html } from './html';
import { page } from './layout';

export function signInPage(csrfToken: string, error?: string): string {
  return page(
    'Sign in',
    { path: '/app/sign-in' },
    html`<h1>Sign in to Mailproof</h1>
<div class="card">
<p>Accounts have no passwords: sign in with one of your API keys. The key is checked once and not kept; your browser gets a session that ends when you sign out, after a while, or when the key is revoked.</p>
${error && html`<p class="error" role="alert">${error}</p>`}
<form method="post" action="/app/sign-in">
<input type="hidden" name="_csrf" value="${csrfToken}">
<label for="key">API key</label>
<input type="password" id="key" name="key" autocomplete="current-password" required spellcheck="false" placeholder="mp_live_…">
<div class="actions"><button type="submit" class="primary">Sign in</button></div>
</form>
</div>`,
  );
}
