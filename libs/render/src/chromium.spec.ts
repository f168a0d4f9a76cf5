import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundToParent, chromiumLaunchOptions } from './chromium';

const linuxWithSetpriv =
  process.platform === 'linux' &&
  (() => {
    try {
      execFileSync('/usr/bin/setpriv', ['--help'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

describe('boundToParent: Chromium started with a parent-death signal', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'mailproof-bound-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  (linuxWithSetpriv ? it : it.skip)('runs the program through setpriv with the arguments unchanged, from a private directory', () => {
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

  (linuxWithSetpriv ? it : it.skip)('quotes a path with spaces and single quotes', () => {
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
