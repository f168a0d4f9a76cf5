/**
 * The dashboard's own script and stylesheet, served from /app/assets/ so the Content-Security-Policy
 * forbids inline script. The script only enhances: copy buttons, reading an uploaded file into the
 * markup field, and a confirmation before deleting. Everything works without it.
 */
export const DASHBOARD_SCRIPT = `(() => {
  'use strict';
  document.addEventListener('click', async (event) => {
    const button = event.target.closest('[data-copy-target]');
    if (!button) return;
    const field = document.getElementById(button.getAttribute('data-copy-target'));
    const status = document.getElementById(button.getAttribute('data-copy-status'));
    if (!field) return;
    try {
      await navigator.clipboard.writeText(field.value);
      if (status) status.textContent = 'Copied.';
    } catch (error) {
      field.select();
      if (status) status.textContent = 'Select and copy the text (Ctrl+C or Cmd+C).';
    }
  });
  const FORMATS = { mjml: 'mjml', jsx: 'jsx', tsx: 'jsx', html: 'html', htm: 'html', eml: 'eml' };
  document.addEventListener('change', (event) => {
    const input = event.target;
    if (!input.matches || !input.matches('input[type=file][data-fill]')) return;
    const file = input.files && input.files[0];
    const target = document.getElementById(input.getAttribute('data-fill'));
    if (!file || !target) return;
    file.text().then((text) => {
      target.value = text;
      const format = FORMATS[(file.name.split('.').pop() || '').toLowerCase()];
      const radio = format && document.querySelector('input[name=format][value=' + format + ']');
      if (radio) radio.checked = true;
    });
  });
  document.addEventListener('submit', (event) => {
    const form = event.target;
    const question = form.getAttribute && form.getAttribute('data-confirm');
    if (question && !window.confirm(question)) event.preventDefault();
  });
  document.documentElement.setAttribute('data-dashboard-ready', 'true');
})();
`;

export const DASHBOARD_STYLES = `
body { background: #f6f8fa; }
.topbar { background: #fff; border-bottom: 1px solid var(--line); display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; padding: .5rem 1rem; }
.brand { font-weight: 700; text-decoration: none; color: var(--ink); }
.topbar nav { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; flex: 1; }
.topbar ul { display: flex; flex-wrap: wrap; gap: .25rem .75rem; list-style: none; margin: 0; padding: 0; }
.topbar a { text-decoration: none; }
.topbar a[aria-current="page"] { font-weight: 700; text-decoration: underline; color: var(--ink); }
.sign-out { margin-left: auto; }
main { max-width: 1100px; }
h1 { margin: .5rem 0 1rem; }
.report-head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 1rem; }
.report-head h1 { margin-bottom: .25rem; }
.notice { background: #ddf4e4; border: 1px solid #a6dcb5; padding: .5rem .75rem; border-radius: .4rem; }
.error { background: #fde7e5; border: 1px solid #f0b4ae; padding: .5rem .75rem; border-radius: .4rem; color: #7a1b12; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 1rem; }
.card h2 { margin-top: 0; }
.pill { display: inline-block; padding: 0 .5rem; border-radius: 1rem; font-size: .85rem; border: 1px solid currentColor; }
.pill-good { color: var(--ok); } .pill-bad { color: var(--bad); } .pill-warn { color: var(--warn); } .pill-muted { color: var(--muted); }
form.inline { display: inline; }
label { font-weight: 600; display: block; margin: .75rem 0 .25rem; }
fieldset { border: 1px solid var(--line); border-radius: .4rem; margin: .75rem 0; }
fieldset label { display: inline-flex; align-items: center; gap: .3rem; font-weight: 400; margin: .2rem .75rem .2rem 0; }
legend { font-weight: 600; }
.checks { min-width: 0; }
.checks label { display: flex; align-items: flex-start; gap: .4rem; margin: .35rem 0; overflow-wrap: anywhere; }
.checks input { margin-top: .3rem; }
input[type=text], input[type=password], input[type=search], textarea, select { font: inherit; width: 100%; padding: .45rem .6rem; border: 1px solid #8c959f; border-radius: .4rem; background: #fff; color: var(--ink); }
textarea { min-height: 14rem; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }
button.primary { background: var(--accent); color: #fff; border-color: var(--accent); }
button.danger { color: var(--bad); border-color: var(--bad); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .75rem 0; }
.searchbar { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
.searchbar > div { flex: 1 1 12rem; }
.searchbar label { margin-top: 0; }
.pager { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin: 1rem 0; }
.chart { margin: .5rem 0 1rem; }
.chart svg { width: 100%; max-width: 600px; height: auto; background: #fff; border: 1px solid var(--line); border-radius: .4rem; font-size: 13px; }
.chart text { fill: #57606a; }
.chart .grid { stroke: #d0d7de; stroke-width: 1; }
.chart .series { fill: none; stroke: #0b5fff; stroke-width: 2; }
.chart .bar { fill: #0b5fff; }
.chart .dot-good { fill: #1a7f37; } .chart .dot-bad { fill: #b42318; }
.timeline { list-style: none; padding: 0; border-left: 3px solid var(--line); margin-left: .5rem; }
.timeline li { position: relative; padding: 0 0 1rem 1rem; }
.timeline li::before { content: ''; position: absolute; left: -.5rem; top: .45rem; width: .7rem; height: .7rem; border-radius: 50%; background: var(--warn); }
/* A failure names a URL or an image source, which may be long and unbroken (a data: URI). */
.failures li { overflow-wrap: anywhere; }
.fix-form { margin: 1rem 0; }
.fix-form fieldset { margin-top: 0; }
.fix-form fieldset label { display: flex; align-items: flex-start; overflow-wrap: anywhere; }
pre.diff { background: #fff; border: 1px solid var(--line); border-radius: .4rem; padding: .5rem .75rem; font-size: .8rem; line-height: 1.45; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 40rem; overflow-y: auto; }
pre.diff ins, pre.diff del { text-decoration: none; display: inline; }
.diff-add { background: #dafbe1; color: #0f5323; }
.diff-del { background: #ffebe9; color: #82071e; }
.diff-hunk { color: #0550ae; }
.diff-file, .diff-note { color: #57606a; }
.keybox { display: flex; gap: .5rem; flex-wrap: wrap; }
.keybox input { flex: 1 1 16rem; font-family: ui-monospace, monospace; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.title { overflow-wrap: anywhere; min-width: 8rem; }
td.num, th.num, .pill { white-space: nowrap; }
@media (max-width: 600px) {
  .topbar nav { flex-basis: 100%; }
  main { padding: .75rem; }
  .hide-narrow { display: none; }
  table { font-size: .85rem; }
}
`;
