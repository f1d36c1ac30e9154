import { spawn } from 'node:child_process';

/**
 * The attacker of the swap tests (issue 13, item 1): a second process that flips files and
 * folders between the real thing and a symbolic link to something outside the workspace,
 * as fast as it can, while the code under test uses them.
 */

/** A workspace path to flip, and the outside thing (relative to the outside folder) its link points to. */
export interface Swap {
  path: string;
  outside: string;
}

/**
 * A process that swaps each entry for a link and back until `stop` exists, then leaves every
 * entry as it was. Resolves with how many swaps it made.
 */
export function startSwapper(root: string, outside: string, stop: string, swaps: readonly Swap[]): { ready: Promise<void>; done: Promise<number> } {
  const script = `
    const fs = require('node:fs');
    const path = require('node:path');
    const [root, outside, stop, spec] = process.argv.slice(1);
    const swaps = JSON.parse(spec).map((s) => ({ at: path.join(root, s.path), keep: path.join(path.dirname(path.join(root, s.path)), '.keep-' + path.basename(s.path)), to: path.join(outside, s.outside) }));
    let flips = 0;
    process.stdout.write('ready\\n');
    while (!fs.existsSync(stop)) {
      for (const s of swaps) {
        try { fs.renameSync(s.at, s.keep); fs.symlinkSync(s.to, s.at); } catch {}
        try { fs.unlinkSync(s.at); fs.renameSync(s.keep, s.at); flips++; } catch {}
      }
    }
    process.stdout.write(String(flips));
  `;
  const child = spawn(process.execPath, ['-e', script, root, outside, stop, JSON.stringify(swaps)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let markReady = (): void => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  const done = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => resolve(Number(out.slice('ready\n'.length))));
  });
  return { ready, done };
}

