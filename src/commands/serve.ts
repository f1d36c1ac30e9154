import type { Command, Option } from 'commander';
import { openWorkspace, outputFor } from '../cli/context.js';
import { load } from '../cli/lazy.js';
import { InputError } from '../errors.js';

export function registerServe(program: Command): void {
  const serve = program
    .command('serve')
    .description('serve the wiki to a team\'s agents over MCP Streamable HTTP at /mcp: the read-only tools of `wiki mcp`, each call under its bearer token\'s user and visibility cap')
    .option('--host <host>', 'address to listen on; anything but loopback is reachable from other machines', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '8787')
    .option('--tokens <file>', 'the tokens file, outside the workspace (default: $WIKI_SERVE_TOKENS, else ~/.config/wiki/serve-tokens.json)')
    .option('--rate-limit <n[/seconds]>', 'JSON-RPC calls each token may make, a batch counting each of its calls (default 600/60: 600 a minute)')
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

  const token = serve.command('token').description('the bearer tokens `wiki serve` accepts (stored hashed, outside the workspace), each for one wiki');
  token
    .command('add')
    .description('make a token for this wiki and print it once; calls with it see pages up to --max-visibility, and with --user NAME that user\'s scratch pages')
    .argument('<name>', 'a name for the token, shown in the call log (e.g. alice-laptop)')
    .requiredOption('--max-visibility <level>', 'the most restricted visibility level it may see (e.g. public, internal)')
    // Parsed by the global --user (before or after the subcommand); listed here for what it means to a token.
    .option('--user <name>', 'bind the token to this user: calls see wiki/user/<name>/ too. Only this flag binds (WIKI_USER does not)')
    .option('--tokens <file>', 'the tokens file, outside the workspace (default: $WIKI_SERVE_TOKENS, else ~/.config/wiki/serve-tokens.json)')
    .configureHelp(ownOptionsOnly)
    .action(async (name: string, opts: { maxVisibility: string }, command: Command) => {
      const out = outputFor(command);
      // Said on the command line, never inherited: WIKI_USER alone does not bind a token.
      const user = explicitUser(command);
      const ws = await openWorkspace(command);
      const [{ addServeToken }, { tokensFilePath }] = await load('serve', 'serveTokens');
      const added = await addServeToken(
        { root: ws.root, schema: ws.schema, config: ws.config.config },
        tokensFilePath(tokensFlag(command)),
        { name, maxVisibility: opts.maxVisibility, user },
        (idFile) => out.info(`made ${idFile}: this wiki's id, which its tokens are bound to — commit it, so every clone accepts them`),
      );
      const { sha256: _hash, ...record } = added.record;
      out.result({ ...record, token: added.token, file: added.file }, () =>
        [
          added.token,
          out.c.dim(`token ${record.name} for wiki ${record.wiki}: up to ${record.maxVisibility}${record.user ? `, user ${record.user}` : ''}; stored hashed in ${added.file}. It is shown only now.`),
        ].join('\n'),
      );
    });
  token
    .command('list')
    .description('the tokens by name, wiki, cap and user (never the tokens themselves)')
    .option('--tokens <file>', 'the tokens file (default: $WIKI_SERVE_TOKENS, else ~/.config/wiki/serve-tokens.json)')
    .configureHelp(ownOptionsOnly)
    .action(async (_opts: Record<string, never>, command: Command) => {
      const out = outputFor(command);
      const [{ listServeTokens }, { tokensFilePath }] = await load('serve', 'serveTokens');
      const file = tokensFilePath(tokensFlag(command));
      const root = await openWorkspace(command).then((ws) => ws.root, () => undefined);
      const { wiki, tokens } = await listServeTokens(file, root);
      const whose = (t: { wiki?: string }): string => (t.wiki === undefined ? 'no wiki (made before tokens were bound; accepted by none: add it again)' : t.wiki === wiki ? `wiki ${t.wiki} (this one)` : `wiki ${t.wiki}`);
      out.result({ file, wiki: wiki ?? null, tokens }, () =>
        tokens.length === 0 ? `no tokens in ${file}` : tokens.map((t) => `${t.name}  ${whose(t)}  up to ${t.maxVisibility}${t.user ? `  user ${t.user}` : ''}  (${t.createdAt})`).join('\n'),
      );
    });
  token
    .command('remove')
    .description('stop accepting this wiki\'s token NAME (a running server notices at once)')
    .argument('<name>', 'the token\'s name')
    .option('--tokens <file>', 'the tokens file (default: $WIKI_SERVE_TOKENS, else ~/.config/wiki/serve-tokens.json)')
    .configureHelp(ownOptionsOnly)
    .action(async (name: string, _opts: Record<string, never>, command: Command) => {
      const out = outputFor(command);
      const ws = await openWorkspace(command);
      const [{ removeServeToken }, { tokensFilePath }] = await load('serve', 'serveTokens');
      const file = tokensFilePath(tokensFlag(command));
      if (!(await removeServeToken(file, name, ws.root))) throw new InputError(`no token named ${name} for this wiki in ${file}`, 'see them with `wiki serve token list`');
      out.result({ removed: name, file }, () => `removed token ${name} from ${file}`);
    });
}

/** The global options a token command takes, beside its own; `wiki serve`'s own (--host, --port, --rate-limit) are not its. */
const TOKEN_GLOBALS = new Set(['--root', '--json', '--quiet', '--no-color']);
const ownOptionsOnly = {
  showGlobalOptions: true,
  visibleGlobalOptions: (cmd: Command) => {
    const own = new Set(cmd.options.map((option) => option.long));
    const seen = new Set<string>();
    const globals: Option[] = [];
    for (let parent = cmd.parent; parent; parent = parent.parent) {
      for (const option of parent.options) {
        if (option.long && TOKEN_GLOBALS.has(option.long) && !own.has(option.long) && !seen.has(option.long)) {
          seen.add(option.long);
          globals.push(option);
        }
      }
    }
    return globals;
  },
};

/** `--user NAME` as given on the command line (before or after the subcommand); never the WIKI_USER variable. */
function explicitUser(command: Command): string | undefined {
  const given = command.optsWithGlobals<{ user?: string }>().user?.trim();
  return given === undefined || given === '' ? undefined : given;
}

/** `--tokens FILE`, given before or after the `token` subcommand (it is `serve`'s option). */
function tokensFlag(command: Command): string | undefined {
  return command.optsWithGlobals<{ tokens?: string }>().tokens;
}
