import type { Command } from 'commander';
import { openWorkspace, outputFor, userOf } from '../cli/context.js';
import { load } from '../cli/lazy.js';
import { InputError } from '../errors.js';

export function registerServe(program: Command): void {
  const serve = program
    .command('serve')
    .description('serve the wiki to a team\'s agents over MCP Streamable HTTP at /mcp: the read-only tools of `wiki mcp`, each call under its bearer token\'s user and visibility cap')
    .option('--host <host>', 'address to listen on; anything but loopback is reachable from other machines', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '8787')
    .option('--tokens <file>', 'the tokens file, outside the workspace (default: $WIKI_SERVE_TOKENS, else ~/.config/wiki/serve-tokens.json)')
    .option('--rate-limit <n[/seconds]>', 'requests each token may make (default 600/60: 600 a minute)')
    .addHelpText(
      'after',
      '\nPrints the URL it listens on (stdout), then one line per call on stderr (time, token name, call, status, bytes, ms; never the token).\n\nExamples:\n  $ wiki serve token add alice-laptop --max-visibility internal --user alice\n  $ wiki serve --port 8787\n  $ claude mcp add --transport http wiki http://127.0.0.1:8787/mcp --header "Authorization: Bearer $WIKI_TOKEN"',
    )
    .action(async (opts: { host: string; port: string; tokens?: string; rateLimit?: string }, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command);
      const [{ serveUntilStopped }, { tokensFilePath }] = await load('serve', 'serveTokens');
      await serveUntilStopped(
        { root: ws.root, schema: ws.schema, config: ws.config.config },
        { host: opts.host, port: opts.port, tokens: tokensFilePath(tokensFlag(command)), rateLimit: opts.rateLimit },
        { announce: (url) => process.stdout.write(`${url}\n`), log: (line) => out.info(line), env: process.env },
      );
    });

  const token = serve.command('token').description('the bearer tokens `wiki serve` accepts (stored hashed, outside the workspace)');
  token
    .command('add')
    .description('make a token and print it once; calls with it see pages up to --max-visibility, and --user NAME\'s scratch pages')
    .argument('<name>', 'a name for the token, shown in the call log (e.g. alice-laptop)')
    .requiredOption('--max-visibility <level>', 'the most restricted visibility level it may see (e.g. public, internal)')
    .action(async (name: string, opts: { maxVisibility: string }, command: Command) => {
      const out = outputFor(command);
      const user = userOf(command);
      const ws = await openWorkspace(command);
      const [{ addServeToken }, { tokensFilePath }] = await load('serve', 'serveTokens');
      const added = await addServeToken({ root: ws.root, schema: ws.schema, config: ws.config.config }, tokensFilePath(tokensFlag(command)), { name, maxVisibility: opts.maxVisibility, user });
      const { sha256: _hash, ...record } = added.record;
      out.result({ ...record, token: added.token, file: added.file }, () =>
        [
          added.token,
          out.c.dim(`token ${record.name}: up to ${record.maxVisibility}${record.user ? `, user ${record.user}` : ''}; stored hashed in ${added.file}. It is shown only now.`),
        ].join('\n'),
      );
    });
  token
    .command('list')
    .description('the tokens by name, cap and user (never the tokens themselves)')
    .action(async (_opts: Record<string, never>, command: Command) => {
      const out = outputFor(command);
      const [{ listServeTokens }, { tokensFilePath }] = await load('serve', 'serveTokens');
      const file = tokensFilePath(tokensFlag(command));
      const tokens = await listServeTokens(file);
      out.result({ file, tokens }, () =>
        tokens.length === 0 ? `no tokens in ${file}` : tokens.map((t) => `${t.name}  up to ${t.maxVisibility}${t.user ? `  user ${t.user}` : ''}  (${t.createdAt})`).join('\n'),
      );
    });
  token
    .command('remove')
    .description('stop accepting a token (a running server notices at once)')
    .argument('<name>', 'the token\'s name')
    .action(async (name: string, _opts: Record<string, never>, command: Command) => {
      const out = outputFor(command);
      const [{ removeServeToken }, { tokensFilePath }] = await load('serve', 'serveTokens');
      const file = tokensFilePath(tokensFlag(command));
      if (!(await removeServeToken(file, name))) throw new InputError(`no token named ${name} in ${file}`, 'see them with `wiki serve token list`');
      out.result({ removed: name, file }, () => `removed token ${name} from ${file}`);
    });
}

/** `--tokens FILE`, given before or after the `token` subcommand (it is `serve`'s option). */
function tokensFlag(command: Command): string | undefined {
  return command.optsWithGlobals<{ tokens?: string }>().tokens;
}
