import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFakeLlmServer, type WireApi } from '../../test/helpers/fake-llm-server.js';
import { packageRoot } from '../../src/util/package-root.js';
import { loadAnswers, replayFigures, replayScript, type ReplayFigures } from './replay.js';
import { timedNode } from './timed-node.js';

/**
 * A played run (test/fixtures/played-run) replayed through the built CLI, one recorded
 * command after another in one workspace made by `wiki init` plus the recorded sources.
 */
export const PLAYED_RUN = path.join(packageRoot(), 'test', 'fixtures', 'played-run');

interface PlayedRunManifest {
  /** The model the player stood in for (its name sets the provider's defaults). */
  model: string;
  runs: Array<{ recording: string; args: string[] }>;
}

export interface ReplayedCommand {
  recording: string;
  code: number;
  stdout: string;
  stderr: string;
  /** Every request body the CLI sent, in order. */
  bodies: Array<Record<string, unknown>>;
  addedReads: number;
  problems: string[];
}

export interface ReplayOutcome {
  commands: ReplayedCommand[];
  /** Figures over every request of the run (Anthropic wire only; OpenAI: bytes only). */
  figures: ReplayFigures;
  /** The workspace after the run (kept when `keep` is set, else removed). */
  root: string;
}

export interface ReplayOptions {
  fixture?: string;
  /** The built command to run (default: this package's bundle). */
  cli?: string;
  api?: WireApi;
  /** Written into wiki.config.json as `contextTokens` before the run. */
  contextTokens?: number;
  /** Only the first this-many recorded commands. */
  commands?: number;
  keep?: boolean;
}

export async function replayPlayedRun(options: ReplayOptions = {}): Promise<ReplayOutcome> {
  const fixture = options.fixture ?? PLAYED_RUN;
  const cli = options.cli ?? path.join(packageRoot(), 'dist', 'bundle', 'wiki.js');
  const api = options.api ?? 'anthropic';
  const manifest = JSON.parse(await readFile(path.join(fixture, 'runs.json'), 'utf8')) as PlayedRunManifest;
  const root = await mkdtemp(path.join(os.tmpdir(), 'wiki-replay-'));
  const env = (extra: Record<string, string | undefined>): NodeJS.ProcessEnv => {
    const base: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
    for (const name of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL', 'WIKI_PROVIDER', 'WIKI_MODEL', 'WIKI_BASE_URL', 'WIKI_MAX_TURNS', 'WIKI_EMBEDDER']) delete base[name];
    Object.assign(base, extra);
    return Object.fromEntries(Object.entries(base).filter(([, value]) => value !== undefined)) as NodeJS.ProcessEnv;
  };
  try {
    const init = await timedNode([cli, 'init', root], { env: env({}) });
    if (init.code !== 0) throw new Error(`wiki init failed: ${init.stderr}`);
    await cp(path.join(fixture, 'raw'), path.join(root, 'raw'), { recursive: true });
    if (options.contextTokens !== undefined) {
      const configPath = path.join(root, 'wiki.config.json');
      const config = JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>;
      await writeFile(configPath, `${JSON.stringify({ ...config, contextTokens: options.contextTokens }, null, 2)}\n`);
    }
    const commands: ReplayedCommand[] = [];
    for (const run of manifest.runs.slice(0, options.commands ?? manifest.runs.length)) {
      const replay = replayScript(await loadAnswers(path.join(fixture, run.recording)));
      const server = await startFakeLlmServer(replay.script, { model: manifest.model });
      try {
        const result = await timedNode([cli, ...run.args], { cwd: root, env: env({ ...server.env(api), WIKI_MODEL: manifest.model }) });
        commands.push({ recording: run.recording, code: result.code, stdout: result.stdout, stderr: result.stderr, bodies: server.requests.map((r) => r.body), addedReads: replay.addedReads(), problems: [...server.problems] });
      } finally {
        await server.close();
      }
    }
    const firsts = new Set(commands.map((_, i) => commands.slice(0, i).reduce((sum, command) => sum + command.bodies.length, 0)));
    return { commands, figures: replayFigures(commands.flatMap((command) => command.bodies), firsts), root };
  } finally {
    if (!options.keep) await rm(root, { recursive: true, force: true });
  }
}
