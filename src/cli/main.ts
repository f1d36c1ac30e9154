#!/usr/bin/env node
import { CommanderError } from 'commander';
import { readArgv } from './argv.js';
import { describeConfigFlags } from './config-flags.js';
import { errorJson, exitCodeFor } from './errors.js';
import { outliveClosedPipes } from './closed-pipes.js';
import { buildProgram } from './program.js';
import { warnEachNoticeOnce } from './warn-once.js';

async function main(argv: string[]): Promise<void> {
  try {
    const program = buildProgram();
    const read = readArgv(program, argv);
    if (read.help) program.outputHelp();
    else {
      await describeConfigFlags(program, read.argv);
      await program.parseAsync(read.argv);
    }
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
