/**
 * Preloaded into the built CLI (NODE_OPTIONS=--require) to make the disk "full": once a file
 * whose path contains WIKI_TEST_DISK_FULL_AT is opened for writing, every write from then on
 * fails with ENOSPC, as on a real full disk. Only synchronous writes are patched: they are
 * how the tool's atomic writer writes.
 */
const fs = require('node:fs');
const { syncBuiltinESMExports } = require('node:module');

const trigger = process.env.WIKI_TEST_DISK_FULL_AT;
let full = false;
const openSync = fs.openSync;
const writeSync = fs.writeSync;
fs.openSync = function patchedOpenSync(file, flags, mode) {
  if (trigger && typeof file === 'string' && file.includes(trigger) && flags === 'wx') full = true;
  return openSync.call(this, file, flags, mode);
};
fs.writeSync = function patchedWriteSync(fd, ...rest) {
  if (full && fd > 2) {
    const error = new Error('ENOSPC: no space left on device, write');
    error.code = 'ENOSPC';
    error.errno = -28;
    error.syscall = 'write';
    throw error;
  }
  return writeSync.call(this, fd, ...rest);
};
syncBuiltinESMExports();
