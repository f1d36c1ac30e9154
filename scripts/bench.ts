/**
 * `npm run bench`: the performance figures the project reports, each beside a baseline
 * measured in the same run. `--only search|validator` runs one part;
 * `--sizes 1000,10000` limits the search wiki sizes (default 1k, 10k, 50k).
 */
import { pathToFileURL } from 'node:url';
import { runSearchBench } from './bench-search.js';
import { runValidatorBench } from './bench-validator.js';

async function main(argv: string[]): Promise<void> {
  const only = valueOf(argv, '--only');
  const sizes = valueOf(argv, '--sizes')
    ?.split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
  if (only !== undefined && only !== 'search' && only !== 'validator') {
    throw new Error(`--only takes search or validator, not ${only}`);
  }
  if (only !== 'search') {
    console.log('# Validator\n');
    await runValidatorBench();
    console.log('');
  }
  if (only !== 'validator') {
    console.log('# Search\n');
    await runSearchBench(sizes && sizes.length > 0 ? sizes : undefined);
  }
}

function valueOf(argv: string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
