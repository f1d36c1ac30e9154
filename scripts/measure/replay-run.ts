import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startFakeLlmServer, type WireApi } from '../../test/helpers/fake-llm-server.js';
import { packageRoot } from '../../src/util/package-root.js';
import { loadAnswers, replayFigures, replayScript, type ReplayFigures } from './replay.js';
import { timedNode } from './timed-node.js';

/**
 * A played run (a fixture folder such as test/fixtures/played-run) replayed through the
 * built CLI, one recorded command after another in one workspace made by `wiki init` plus
 * the fixture's raw/ sources.
 */
export const PLAYED_RUN = path.join(packageRoot(), 'test', 'fixtures', 'played-run');
/** The run played after numbered windows, the context budget and frontmatter sync (contextTokens 20000 from its second command). */
export const PLAYED_RUN_AFTER = path.join(packageRoot(), 'test', 'fixtures', 'played-run-after');
/** The third run, played with main at c6fb73e on three new sources (default settings). */
export const PLAYED_RUN_3 = path.join(packageRoot(), 'test', 'fixtures', 'played-run-3');
/** The fourth, played with a build of 9028914 (one cached prefix for every command) on three more sources. */
export const PLAYED_RUN_4 = path.join(packageRoot(), 'test', 'fixtures', 'played-run-4');
/** The fifth, played with a build of 73850a5 on three more sources (try, number literals, futures). */
export const PLAYED_RUN_5 = path.join(packageRoot(), 'test', 'fixtures', 'played-run-5');
/** The sixth, played with the same build on three more sources (go install, or-patterns, the 2021 edition). */
export const PLAYED_RUN_6 = path.join(packageRoot(), 'test', 'fixtures', 'played-run-6');
/** The seventh, played with main at cd70e10 on three more sources (preemption, type aliases, non-ASCII identifiers). */
export const PLAYED_RUN_7 = path.join(packageRoot(), 'test', 'fixtures', 'played-run-7');
/** A re-ingest of a source its authors revised (WICG fenced-frame explainer, 9f5ca7c → 27aaf88), played with main at 5d992e8. */
export const PLAYED_RUN_REINGEST_2 = path.join(packageRoot(), 'test', 'fixtures', 'played-run-reingest-2');
/** The fifteenth, played with main at 5d992e8 (edits, evidence with citations): three ingests updating each other's pages, a comparison query, a read-only lint review. */
export const PLAYED_RUN_15 = path.join(packageRoot(), 'test', 'fixtures', 'played-run-15');

type SettingValue = string | number | boolean;

interface PlayedRunManifest {
  /** The model the player stood in for (its name sets the provider's defaults). */
  model: string;
  /**
   * `config`: settings the player set with `wiki config set` before this command; they stay
   * for the commands after it, as they did in the recording.
   */
  /** `files`: fixture files copied over workspace files just before this command (a source's next version). */
  runs: Array<{ recording: string; args: string[]; config?: Record<string, SettingValue>; files?: Record<string, string> }>;
}

/** A `wiki config set` the replay made; a build that does not know the key refuses it and runs on its defaults. */
export interface AppliedSetting {
  key: string;
  value: SettingValue;
  applied: boolean;
  /** The CLI's message when it refused. */
  refusal?: string;
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
  /** Tool answers that were errors (a refused write, a failed read), as the model saw them. */
  toolErrors: string[];
  /** Settings made just before this command (the fixture's and the options'). */
  settings: AppliedSetting[];
  /** The contextTokens this command ran with, when one was set and the build accepted it. */
  contextTokens?: number;
}

export interface ReplayOutcome {
  commands: ReplayedCommand[];
  /** Figures over every request of the run (Anthropic wire only; OpenAI: bytes only). */
  figures: ReplayFigures;
  /** The workspace after the run (kept when `keep` is set, else removed). */
  root: string;
}

export interface ReplayOptions {
  /** The fixture folder: runs.json, raw/, one folder of ans-N.txt per recording (default: PLAYED_RUN). */
  fixture?: string;
  /** The built command to run (default: this package's bundle). */
  cli?: string;
  api?: WireApi;
  /** Set (`wiki config set contextTokens N`) before the first command; a fixture's own settings come after it. */
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
    const configSet = async (key: string, value: SettingValue): Promise<AppliedSetting> => {
      const result = await timedNode([cli, 'config', 'set', key, JSON.stringify(value)], { cwd: root, env: env({}) });
      return result.code === 0 ? { key, value, applied: true } : { key, value, applied: false, refusal: result.stderr.trim().split('\n')[0] };
    };
    let pending: AppliedSetting[] = options.contextTokens === undefined ? [] : [await configSet('contextTokens', options.contextTokens)];
    let contextTokens: number | undefined = pending.find((s) => s.applied) ? options.contextTokens : undefined;
    const commands: ReplayedCommand[] = [];
    for (const run of manifest.runs.slice(0, options.commands ?? manifest.runs.length)) {
      for (const [key, value] of Object.entries(run.config ?? {})) {
        const setting = await configSet(key, value);
        pending.push(setting);
        if (key === 'contextTokens' && setting.applied && typeof value === 'number') contextTokens = value;
      }
      const settings = pending;
      pending = [];
      for (const [into, from] of Object.entries(run.files ?? {})) await cp(path.join(fixture, from), path.join(root, into));
      const replay = replayScript(await loadAnswers(path.join(fixture, run.recording)));
      const server = await startFakeLlmServer(replay.script, { model: manifest.model });
      try {
        const result = await timedNode([cli, ...run.args], { cwd: root, env: env({ ...server.env(api), WIKI_MODEL: manifest.model }) });
        commands.push({ recording: run.recording, code: result.code, stdout: result.stdout, stderr: result.stderr, bodies: server.requests.map((r) => r.body), addedReads: replay.addedReads(), problems: [...server.problems], toolErrors: server.requests.flatMap((r) => r.toolResults.filter((t) => t.isError).map((t) => t.content)), settings, contextTokens });
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

/** The fixture's sources as the workspace holds them: raw/NAME. */
export async function fixtureSources(fixture: string): Promise<string[]> {
  return (await readdir(path.join(fixture, 'raw'))).sort().map((name) => `raw/${name}`);
}

/** Lines in a fixture's source, as read_file numbers them (a trailing newline ends the last line). */
export async function sourceLineCount(fixture: string, source: string): Promise<number> {
  const text = await readFile(path.join(fixture, source), 'utf8');
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
