/**
 * When the reader of the command's output goes away (`wiki search … | head -1`, a log
 * collector that stops), writes fail with EPIPE. Unheard, that error would end the process
 * with a stack trace wherever it was, an ingest or `lint --fix` halfway through included.
 * Instead the rest of that stream's output is dropped and the command finishes what it was
 * doing, with its own exit code. Any other write error still ends the process as before.
 */
export function outliveClosedPipes(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}
