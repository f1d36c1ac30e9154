import { Writable } from 'node:stream';
import { Output } from '../../src/cli/output.js';

/** A stderr/stdout stand-in that records what was written and claims to be a terminal or not. */
export class FakeStream extends Writable {
  readonly chunks: string[] = [];
  constructor(readonly isTTY: boolean) {
    super({
      write: (chunk: Buffer | string, _encoding, callback) => {
        this.chunks.push(chunk.toString());
        callback();
      },
    });
  }
  get text(): string {
    return this.chunks.join('');
  }
}

export function fakeOutput(options: { tty: boolean; quiet?: boolean; json?: boolean }): { out: Output; stderr: FakeStream; stdout: FakeStream } {
  const stdout = new FakeStream(options.tty);
  const stderr = new FakeStream(options.tty);
  const out = new Output(
    { json: options.json ?? false, quiet: options.quiet ?? false, color: false },
    stdout as unknown as typeof process.stdout,
    stderr as unknown as typeof process.stderr,
  );
  return { out, stderr, stdout };
}
