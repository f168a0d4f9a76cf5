// Chromium comes from Debian (CHROMIUM_PATH, /usr/bin/chromium); no npm install may download a browser.
// puppeteer-cluster's peer dependency pulls the full `puppeteer` package, whose postinstall would fetch
// Chrome: this file (and PUPPETEER_SKIP_DOWNLOAD=1 in CI and the Dockerfile) stops it.
module.exports = { skipDownload: true };
