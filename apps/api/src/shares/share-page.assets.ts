/**
 * The share page's only script and stylesheet, served from /share/assets/ so the page's
 * Content-Security-Policy can forbid inline script. No framework: a picker, a mode toggle and
 * a fetch per client.
 */
export const SHARE_PAGE_SCRIPT = `(() => {
  'use strict';
  // The slider between the reference rendering and a client's screenshot (divergence.view.ts): the client's
  // picture is cut at the slider's value from the left, the reference from the right, so 0 shows the
  // reference alone and 100 the client alone. CSSOM writes, which the pages' CSP allows (no style attribute).
  for (const figure of document.querySelectorAll('[data-compare]')) {
    const range = figure.querySelector('[data-compare-range]');
    const client = figure.querySelector('.compare-client');
    const reference = figure.querySelector('.compare-reference');
    const control = figure.querySelector('.compare-control');
    if (!range || !client || !reference || !control) continue;
    const name = range.getAttribute('data-client-name');
    const show = () => {
      const value = Number(range.value);
      client.style.clipPath = 'inset(0 ' + (100 - value) + '% 0 0)';
      reference.style.clipPath = 'inset(0 0 0 ' + value + '%)';
      range.setAttribute('aria-valuetext', value === 100 ? name : value === 0 ? 'Reference' : name + ' ' + value + '%, reference ' + (100 - value) + '%');
    };
    range.addEventListener('input', show);
    control.hidden = false;
    figure.setAttribute('data-ready', 'true');
    show();
  }
  const root = document.querySelector('[data-clients-url]');
  if (!root) return;
  const clientsUrl = root.getAttribute('data-clients-url');
  const picker = document.getElementById('client-picker');
  const lightFrame = document.getElementById('frame-light');
  const darkFrame = document.getElementById('frame-dark');
  const status = document.getElementById('viewer-status');
  const modeButtons = Array.from(document.querySelectorAll('button[data-mode]'));
  const loaded = new Map();

  async function load(clientId) {
    if (!loaded.has(clientId)) {
      const response = await fetch(clientsUrl + '/' + encodeURIComponent(clientId), {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
      if (!response.ok) throw new Error('HTTP ' + response.status);
      loaded.set(clientId, await response.json());
    }
    return loaded.get(clientId);
  }

  async function showClient(clientId) {
    status.textContent = 'Loading…';
    try {
      const client = await load(clientId);
      lightFrame.srcdoc = client.html;
      darkFrame.srcdoc = client.darkHtml;
      lightFrame.title = client.name + ' in light mode';
      darkFrame.title = client.name + ' in dark mode';
      root.setAttribute('data-client', clientId);
      status.textContent = 'Showing ' + client.name + ' (score ' + client.score + ')';
    } catch (error) {
      status.textContent = 'Could not load this client. Try again.';
    }
  }

  // The address keeps the view (?client=&mode=), so a copied link opens the same one.
  function remember() {
    const url = new URL(window.location.href);
    url.searchParams.set('client', root.getAttribute('data-client'));
    url.searchParams.set('mode', root.getAttribute('data-mode'));
    window.history.replaceState(null, '', url.pathname + url.search);
  }

  function setMode(mode) {
    root.setAttribute('data-mode', mode);
    for (const button of modeButtons) button.setAttribute('aria-pressed', String(button.getAttribute('data-mode') === mode));
    remember();
  }

  picker.addEventListener('change', async () => {
    await showClient(picker.value);
    remember();
  });
  for (const button of modeButtons) button.addEventListener('click', () => setMode(button.getAttribute('data-mode')));
  root.setAttribute('data-ready', 'true');
})();
`;

export const SHARE_PAGE_STYLES = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b5fff; --bad: #b42318; --warn: #9a6700; --ok: #1a7f37; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f8fa; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 1rem; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; justify-content: space-between; }
h1 { font-size: 1.5rem; margin: 0; } h2 { font-size: 1.2rem; margin: 2rem 0 .75rem; } h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
.score { font-size: 2rem; font-weight: 700; padding: .25rem .75rem; border-radius: .5rem; background: #fff; border: 1px solid var(--line); }
.score-good { color: var(--ok); } .score-fair { color: var(--warn); } .score-poor { color: var(--bad); }
.meta { color: var(--muted); font-size: .9rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: .5rem; padding: 1rem; }
table { width: 100%; border-collapse: collapse; font-size: .95rem; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.table-scroll { overflow-x: auto; }
.controls { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; margin-bottom: .75rem; }
select, button { font: inherit; padding: .4rem .6rem; border: 1px solid var(--line); border-radius: .4rem; background: #fff; color: var(--ink); }
button[aria-pressed="true"] { background: var(--ink); color: #fff; border-color: var(--ink); }
.frames { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
.frames figure { margin: 0; } .frames figcaption { font-size: .9rem; color: var(--muted); margin-bottom: .25rem; }
iframe { width: 100%; height: 560px; border: 1px solid var(--line); border-radius: .4rem; background: #fff; }
.frame-dark iframe { background: #121212; }
[data-mode="light"] .frame-dark, [data-mode="dark"] .frame-light { display: none; }
[data-mode="light"] .frames, [data-mode="dark"] .frames { grid-template-columns: 1fr; }
@media (max-width: 800px) { .frames { grid-template-columns: 1fr; } iframe { height: 520px; } }
.sev-error { color: var(--bad); } .sev-warning { color: var(--warn); } .sev-info { color: var(--muted); }
pre { background: #f6f8fa; padding: .5rem; overflow-x: auto; font-size: .85rem; border-radius: .3rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.score { margin: 0; }
details > summary { cursor: pointer; }
details.severity > summary { list-style-position: outside; margin-left: 1rem; }
details.severity > summary h3 { display: inline; }
.count { color: var(--muted); font-weight: 400; font-size: .9rem; }
.finding-list { list-style: none; padding: 0; margin: .5rem 0 1rem; }
.finding { border-top: 1px solid var(--line); padding: .6rem 0; }
.finding p { margin: .2rem 0; }
.chips { list-style: none; padding: 0; margin: .3rem 0; display: flex; flex-wrap: wrap; gap: .25rem; }
.chips li { font-size: .8rem; padding: 0 .45rem; border: 1px solid var(--line); border-radius: 1rem; background: #f6f8fa; }
.shot-pair h3 { margin: 1rem 0 .5rem; }
.shots { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; } .shots figure { margin: 0; } .shots img { width: 100%; border: 1px solid var(--line); }
.compare-stage { display: grid; position: relative; background: #fff; border: 1px solid var(--line); }
.compare-stage > * { grid-area: 1 / 1; align-self: start; }
.shots .compare-stage img { display: block; width: 100%; border: 0; }
.compare-reference { display: none; }
.compare[data-ready] .compare-reference { display: block; }
.regions-overlay { position: absolute; inset: 0; width: 100%; height: 100%; pointer-events: none; }
.region rect { fill: none; stroke-width: 3px; vector-effect: non-scaling-stroke; }
.region text { font-family: system-ui, sans-serif; font-weight: 700; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.region-layout rect { stroke: #c0199b; } .region-layout text { fill: #8f1273; }
.region-color rect { stroke: #0b5fff; stroke-dasharray: 6 3; } .region-color text { fill: #0a4fd6; }
.compare-control { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: .4rem 0; font-size: .9rem; }
.compare-control input { flex: 1 1 8rem; accent-color: var(--accent); }
.region-list { margin: .4rem 0; padding-left: 0; list-style: none; font-size: .85rem; }
.region-item { border-top: 1px solid var(--line); padding: .3rem 0; overflow-wrap: anywhere; }
.region-item p, .region-elements { margin: .1rem 0; }
.region-elements { padding-left: 1rem; }
.region-tag { font-weight: 700; padding: 0 .35rem; border-radius: .3rem; border: 2px solid; }
.region-tag-layout { color: #8f1273; border-color: #c0199b; } .region-tag-color { color: #0a4fd6; border-color: #0b5fff; border-style: dashed; }
.divergence-order { margin: .2rem 0; }
@media (max-width: 600px) { .shots { grid-template-columns: 1fr; } }
`;

/** A small envelope with a check mark, in the page's ink and accent colors. */
export const SHARE_PAGE_FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="6" width="28" height="20" rx="3" fill="#1b1f24"/><path d="M4 9l12 9 12-9" fill="none" stroke="#ffffff" stroke-width="2"/><circle cx="25" cy="23" r="6" fill="#1a7f37"/><path d="M22 23l2 2 4-4" fill="none" stroke="#ffffff" stroke-width="2"/></svg>
`;
