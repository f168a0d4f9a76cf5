import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundToParent, chromiumLaunchOptions } from './chromium';

/** The wrapper needs util-linux's setpriv (Linux, essential in Debian): without it these tests fail, never skip. */
function requireSetpriv(): void {
  try {
    execFileSync('/usr/bin/setpriv', ['--help'], { stdio: 'ignore' });
  } catch {
    throw new Error(`/usr/bin/setpriv does not run on this ${process.platform} machine: install util-linux (Debian: essential). This test does not skip.`);
  }
}

describe('boundToParent: Chromium started with a parent-death signal', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'mailproof-bound-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('runs the program through setpriv with the arguments unchanged, from a private directory', () => {
    requireSetpriv();
    const wrapper = boundToParent('/bin/echo', tmp);
    expect(wrapper).not.toBe('/bin/echo');
    expect(wrapper.startsWith(join(tmp, `mailproof-${process.getuid?.()}`))).toBe(true);
    expect(statSync(wrapper).mode & 0o777).toBe(0o700);
    expect(execFileSync(wrapper, ['--flag=a b', "it's"], { encoding: 'utf8' })).toBe("--flag=a b it's\n");
    // Written once: a second launch reuses the same file.
    expect(boundToParent('/bin/echo', tmp)).toBe(wrapper);
    // Launches use it (in the real temporary directory).
    expect(chromiumLaunchOptions('/bin/echo').executablePath).toBe(boundToParent('/bin/echo'));
    expect(chromiumLaunchOptions('/bin/echo').executablePath).not.toBe('/bin/echo');
  });

  it('quotes a path with spaces and single quotes', () => {
    requireSetpriv();
    const dir = join(tmp, "it's a dir");
    mkdirSync(dir);
    symlinkSync('/bin/echo', join(dir, 'echo'));
    const wrapper = boundToParent(join(dir, 'echo'), tmp);
    expect(wrapper).not.toBe(join(dir, 'echo'));
    expect(execFileSync(wrapper, ['ok'], { encoding: 'utf8' })).toBe('ok\n');
  });

  it('starts the program as it is when the path does not exist (puppeteer names it) or the directory is not safely ours', () => {
    expect(boundToParent(join(tmp, 'no-such-chromium'), tmp)).toBe(join(tmp, 'no-such-chromium'));
    const shared = join(tmp, `mailproof-${process.getuid?.()}`);
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    expect(boundToParent('/bin/echo', tmp)).toBe('/bin/echo');
  });
});
