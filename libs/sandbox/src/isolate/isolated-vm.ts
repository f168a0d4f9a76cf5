import type IsolatedVm from 'isolated-vm';

/**
 * isolated-vm for the running Node. No single release builds on every Node this project supports:
 * 5.x (the `isolated-vm` dependency) compiles for Node 20 and 22 but not against Node 24's V8, and
 * 6.x (the `isolated-vm-node22` dependency, an npm alias) ships prebuilt binaries for Node 22 and 24
 * but needs Node >= 22. Both are optional dependencies, so npm installs whichever fits the Node that
 * runs `npm ci` and skips the other without a warning. Node >= 22 takes 6.x when it is installed.
 * Only one of the two may ever be loaded into a process: their native parts abort when both are.
 */
function loadIsolatedVm(): typeof IsolatedVm {
  const candidates = Number(process.versions.node.split('.')[0]) >= 22 ? ['isolated-vm-node22', 'isolated-vm'] : ['isolated-vm'];
  const missing: string[] = [];
  for (const name of candidates) {
    let resolved: string;
    try {
      resolved = require.resolve(name);
    } catch {
      missing.push(name);
      continue;
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- which install exists is known only at run time
    return require(resolved) as typeof IsolatedVm;
  }
  throw new Error(`isolated-vm is not installed for Node ${process.versions.node} (looked for ${missing.join(', ')}): run npm ci with this Node`);
}

const ivm: typeof IsolatedVm = loadIsolatedVm();
export default ivm;
