#!/usr/bin/env node
import { buildProgram } from './program.js';
import { exitCodeFor } from './errors.js';

async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    process.exitCode = exitCodeFor(error);
  }
}

await main(process.argv);
