/**
 * Every module the command line loads on demand rather than at start-up, by name: `--version`,
 * `--help` and a usage error load none of them, and each command only its own. Specifiers are
 * literal so the bundler splits the shipped command at each (scripts/bundle.ts).
 */
const modules = {
  exitCodes: () => import('./exit-codes.js'),
  renderLint: () => import('./render-lint.js'),
  renderRun: () => import('./render-run.js'),
  renderTranslate: () => import('./render-translate.js'),
  renderSearch: () => import('./render-search.js'),
  renderStatus: () => import('./render-status.js'),
  configOperation: () => import('../operations/workspace/config.js'),
  graphOperation: () => import('../operations/inspect/graph.js'),
  ingestOperation: () => import('../operations/ingest/ingest.js'),
  initOperation: () => import('../operations/workspace/init.js'),
  lintOperation: () => import('../operations/lint/lint-with-review.js'),
  queryOperation: () => import('../operations/query/query.js'),
  translateOperation: () => import('../operations/translate/translate.js'),
  searchOperation: () => import('../operations/inspect/search.js'),
  statusOperation: () => import('../operations/inspect/status.js'),
  undoOperation: () => import('../operations/history/undo.js'),
  reviewAccept: () => import('../operations/review/accept.js'),
  reviewDecide: () => import('../operations/review/decide.js'),
  reviewShow: () => import('../operations/review/show.js'),
  reviewRequest: () => import('../operations/review/propose.js'),
  reviewStore: () => import('../operations/review/proposals.js'),
  renderReview: () => import('./render-review.js'),
  mcpServer: () => import('../mcp/stdio.js'),
  serve: () => import('../serve/serve.js'),
  serveTokens: () => import('../serve/tokens.js'),
  access: () => import('../wiki/access.js'),
  factsOperation: () => import('../operations/inspect/facts.js'),
  factsQueryOperation: () => import('../operations/query/query-facts.js'),
  renderFacts: () => import('./render-facts.js'),
  providerDefaults: () => import('../providers/defaults.js'),
  localServer: () => import('../providers/local-server.js'),
  promoteOperation: () => import('../operations/history/promote.js'),
  removeOperation: () => import('../operations/sources/remove-source.js'),
  renderRemove: () => import('./render-remove.js'),
  progress: () => import('../progress/reporter.js'),
  jobBoard: () => import('../progress/job-board.js'),
  providerChoice: () => import('../config/provider-choice.js'),
  providers: () => import('../providers/select.js'),
  pricing: () => import('../usage/cost.js'),
  schemaLoader: () => import('../wiki/schema-loader.js'),
  settings: () => import('../config/settings.js'),
  configSources: () => import('../config/sources.js'),
  dotenv: () => import('../config/dotenv.js'),
  workspaceRoot: () => import('../wiki/workspace.js'),
  keySchema: () => import('../config/key-schema.js'),
  storeOperation: () => import('../operations/workspace/store.js'),
};

type Modules = typeof modules;
type Loaded<K extends readonly (keyof Modules)[]> = { [I in keyof K]: Awaited<ReturnType<Modules[K[I]]>> };

/** Load the named modules in parallel: `const [{ undo }] = await load('undoOperation')`. */
export function load<const K extends readonly (keyof Modules)[]>(...names: K): Promise<Loaded<K>> {
  return Promise.all(names.map((name) => modules[name]())) as Promise<Loaded<K>>;
}
