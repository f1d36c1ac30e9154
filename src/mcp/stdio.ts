import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { jsonRpcGuard } from './jsonrpc-guard.js';
import { createWikiMcpServer, type McpWorkspace, type WikiMcpOptions } from './server.js';
import { MCP_TOOL_NAMES } from './tools.js';

const CONSOLE_METHODS = ['log', 'info', 'debug', 'warn', 'error', 'trace', 'dir'] as const;

/**
 * Serve the wiki over stdin/stdout until the client goes away (stdin ends) or the process
 * is told to stop (SIGINT/SIGTERM), then flush the search index. stdout carries only
 * protocol messages: anything a library prints through `console` is sent to stderr.
 */
export async function serveWikiMcpOverStdio(workspace: McpWorkspace, options: WikiMcpOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const restoreConsole = consoleToStderr();
  const { server, close } = createWikiMcpServer(workspace, { ...options, log });
  const guarded = process.stdin.pipe(jsonRpcGuard((line) => process.stdout.write(line)));
  const transport = new StdioServerTransport(guarded, process.stdout);
  let stop: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  const onEnd = (): void => stop('the client closed stdin');
  const onSignal = (signal: NodeJS.Signals): void => stop(signal);
  transport.onclose = () => stop('the connection closed');
  process.stdin.once('end', onEnd);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  transport.onerror = (error) => log(`wiki mcp: ${error.message}`);
  try {
    await server.connect(transport);
    log(`wiki mcp: serving ${workspace.root} on stdio (read-only: ${MCP_TOOL_NAMES.join(', ')})`);
    const why = await stopped;
    log(`wiki mcp: stopping (${why})`);
  } finally {
    process.stdin.off('end', onEnd);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await server.close().catch(() => undefined);
    await close();
    restoreConsole();
    // The transport only pauses stdin; release it so the process can exit.
    guarded.destroy();
    process.stdin.destroy();
  }
}

/** Route console output to stderr; returns the function that undoes it. */
function consoleToStderr(): () => void {
  const saved = CONSOLE_METHODS.map((name) => [name, console[name]] as const);
  const toStderr = new console.Console({ stdout: process.stderr, stderr: process.stderr });
  for (const name of CONSOLE_METHODS) console[name] = toStderr[name].bind(toStderr);
  return () => {
    for (const [name, method] of saved) console[name] = method;
  };
}
