import type { Command } from 'commander';
import { openWorkspace, outputFor } from '../cli/context.js';
import { lintJson, renderLint } from '../cli/render-lint.js';
import { lintWorkspace } from '../operations/lint.js';
import { parseWaitSeconds } from '../state/lock.js';

interface LintFlags {
  fix?: boolean;
  llm: boolean;
  strict?: boolean;
  wait?: number;
}

export function registerLint(program: Command): void {
  program
    .command('lint')
    .description('check the wiki against schema.md: broken links, unindexed and orphan pages, missing fields and sources, duplicates, log format')
    .option('--fix', 'apply the safe deterministic repairs: rebuild the index catalog, rewrite links with one unique near match, fill type/created/updated, order frontmatter')
    .option('--no-llm', 'run only the deterministic checks (no model)')
    .option('--strict', 'count warnings as failures (exit 1)')
    .option('--wait <seconds>', 'with --fix: wait this long for another run to release the workspace lock', parseWaitSeconds)
    .addHelpText(
      'after',
      '\nExit codes: 0 no errors (warnings allowed unless --strict) · 1 errors found or left · 2 usage or workspace error\n\nExamples:\n  $ wiki lint\n  $ wiki lint --strict --json\n  $ wiki lint --fix --no-llm      (cron-safe; a second run changes nothing)',
    )
    .action(async (opts: LintFlags, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command);
      const fix = Boolean(opts.fix);
      const strict = Boolean(opts.strict);
      const report = await lintWorkspace(ws.root, ws.schema, ws.config.config, {
        fix,
        waitSeconds: opts.wait ?? 0,
        onNotice: (message) => out.warn(message),
      });
      // Model-assisted review branch point: once the agent exists, it runs here when
      // `opts.llm` is true and merges its findings into `report`. Until then every
      // `wiki lint` is the deterministic lint above, with or without --no-llm.
      out.result(lintJson(report, fix), () => renderLint(report, out.c, { fix, strict }));
      if (report.errors > 0 || (strict && report.warnings > 0)) process.exitCode = 1;
    });
}
