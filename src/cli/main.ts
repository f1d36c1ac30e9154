#!/usr/bin/env node
import { CommanderError } from 'commander';
import { errorJson, exitCodeFor } from './errors.js';
import { outliveClosedPipes } from './closed-pipes.js';
import { buildProgram } from './program.js';
import { warnEachNoticeOnce } from './warn-once.js';

async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    const code = exitCodeFor(error);
    process.exitCode = code;
    const helpOrVersion = error instanceof CommanderError && code === 0;
    if (argv.includes('--json') && !helpOrVersion) process.stdout.write(errorJson(error, code));
  }
}

warnEachNoticeOnce();
outliveClosedPipes();
await main(process.argv);
