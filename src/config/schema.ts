import { z } from 'zod';
import { languageTagProblem } from '../util/language-tag.js';

/**
 * wiki.config.json. No secrets live here: API keys come only from the environment.
 * Every field has a default so an empty file `{}` is a valid configuration.
 */
// Weights of each lane's scores (see src/search/fusion/score-fusion.ts), chosen on the
// development sets Cranfield and CACM (docs/search-eval.md): lexical first, the semantic lane
// re-ranking its candidates, the token lane a small tie-breaker. Under the built-in embedder
// the semantic weight is scaled by the lane's measured strength in the corpus
// (src/search/fusion/semantic-strength.ts).
const weightsSchema = z
  .object({
    lexical: z.number().min(0).default(1),
    semantic: z.number().min(0).default(1.5),
    token: z.number().min(0).default(0.2),
  })
  .strict()
  .prefault({});

const embedderSchema = z
  .object({
    kind: z.enum(['builtin', 'openai', 'none']).default('builtin'),
    /** Model name for an OpenAI-compatible embeddings endpoint. */
    model: z.string().min(1).default('text-embedding-3-small'),
    /** Base URL of an OpenAI-compatible embeddings endpoint (Ollama, llama.cpp…). */
    baseUrl: z.string().url().optional(),
    /** Dimensions of the built-in LSA embedder. */
    dimensions: z.number().int().min(8).max(1024).default(128),
    batchSize: z.number().int().min(1).max(2048).default(64),
  })
  .strict()
  .prefault({});

const searchSchema = z
  .object({
    weights: weightsSchema,
    /** Reciprocal Rank Fusion constant K in Σ weight / (K + rank), when the fusion is by ranks. */
    k: z.number().min(0).default(60),
    /** Rank fusion only: minimum candidates each lane contributes; the real pool is max(pool, 3 × limit). */
    pool: z.number().int().min(1).default(25),
    bm25: z
      .object({ k1: z.number().min(0).default(1.2), b: z.number().min(0).max(1).default(0.75) })
      .strict()
      .prefault({}),
    embedder: embedderSchema,
  })
  .strict()
  .prefault({});

/**
 * The smallest context window a run can work in, measured: an ingest of the template wiki
 * fits every request and its reply within 12,000 tokens (the largest about 11,980) and not
 * within 8,000; once the prompt and tools grew (write_file edits, review, questions) the
 * played run's largest request was 48,057 bytes against 12,000 tokens' 48,000, so the floor
 * is 13,000, where the played run completes (test/cli/played-run.test.ts).
 */
export const MIN_CONTEXT_TOKENS = 13_000;

export const configSchema = z
  .object({
    provider: z.enum(['anthropic', 'openai']).optional(),
    model: z.string().min(1).optional(),
    baseUrl: z.string().url().optional(),
    maxTurns: z.number().int().min(1).max(1000).default(40),
    /** Total input + output tokens a run may use; unset = no cap. */
    maxTokens: z.number().int().min(1).optional(),
    /** Estimated USD a run may cost (when the model's price is known); unset = no cap. */
    maxCost: z.number().min(0).optional(),
    requestTimeoutMs: z.number().int().min(1000).default(600_000),
    maxRetries: z.number().int().min(0).max(20).default(2),
    /** Stream model responses (SSE); off for servers that do not stream tool calls well. */
    stream: z.boolean().default(true),
    /** Max output tokens per model response. */
    maxOutputTokens: z.number().int().min(256).default(8192),
    /**
     * The model's context window in tokens: every request and its reply stay within it (old
     * tool results give way to stubs). Unset: 200k for Claude, 128k for OpenAI's models,
     * 24k for a model behind another OpenAI-compatible server.
     */
    contextTokens: z
      .number()
      .int()
      .min(MIN_CONTEXT_TOKENS, {
        message: `must be at least ${MIN_CONTEXT_TOKENS} tokens: the system prompt and tools take about 3,700, the reply a quarter of the window, and an ingest needs room for its source and one read window besides (at 8000, 500 were left)`,
      })
      .optional(),
    /** How many page keys (with summaries) the system prompt lists before pointing to search. */
    promptPageLimit: z.number().int().min(0).default(300),
    /** Tokens the prompt's page list may take (estimated as characters / 4); the pages most relevant to the run come first. */
    promptPageTokens: z.number().int().min(0).default(4000),
    /** Characters of `usage_mode: always` pages (summaries first, then bodies) put in every model prompt. */
    promptAlwaysChars: z.number().int().min(0).default(8000),
    /**
     * The language the model writes pages, answers and lint reviews in, as a BCP 47 tag
     * (`de`, `pt-BR`); unset: the language of the sources. Only its name reaches the prompt.
     */
    language: z
      .string()
      .superRefine((tag, ctx) => {
        const problem = languageTagProblem(tag);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
      })
      .describe('a BCP 47 language tag such as de, fr, zh, ja or pt-BR')
      .optional(),
    /** Retrieval-first `wiki query` and MCP's `ask_wiki`: the evidence pack built before the model is called. */
    query: z
      .object({
        /** How many of the best search hits seed the pack. */
        seeds: z.number().int().min(1).max(50).default(5),
        /** Link hops (refs and [[links]]) followed from the seeds. */
        hops: z.number().int().min(0).max(2).default(2),
        /** The most pages in the pack; the seeds are always kept. */
        maxPages: z.number().int().min(1).max(200).default(12),
        /** Budget of the pack `wiki query` gives the model, in tokens (estimated as characters / 4). */
        packTokens: z.number().int().min(100).default(3000),
      })
      .strict()
      .prefault({}),
    /** Source coverage: the share of a raw source's text lines inside some `<!-- from: raw/x#La-b -->` range on the pages. */
    coverage: z
      .object({
        /** `wiki lint` and `wiki status` warn about sources below this share (0–1; 0 turns the warning off). */
        warnBelow: z.number().min(0).max(1).default(0.5),
      })
      .strict()
      .prefault({}),
    /** `wiki lint` with a model. */
    lint: z
      .object({
        /** The most findings one model run is handed (errors first, then structure, then grounding); the rest wait for the next run. */
        fixBatch: z.number().int().min(1).max(500).default(30),
      })
      .strict()
      .prefault({}),
    /** What `wiki mcp` serves to other agents. */
    mcp: z
      .object({
        /** The highest visibility level served (one of schema.md's levels); `--max-visibility` overrides it. */
        maxVisibility: z.string().min(1).default('internal'),
        /** The most characters any one tool answer may hold; longer answers are cut and say so. */
        maxChars: z.number().int().min(1000).default(20_000),
      })
      .strict()
      .prefault({}),
    index: z
      .object({
        /** Past this many pages index.md becomes hub-and-spoke. */
        hubThreshold: z.number().int().min(1).default(300),
      })
      .strict()
      .prefault({}),
    search: searchSchema,
    git: z.object({ autoCommit: z.boolean().default(false) }).strict().prefault({}),
    /** Runs that change pages leave a proposal for `wiki review` instead of writing wiki/ (`--review` / `--no-review` override it). */
    review: z.boolean().default(false),
    /**
     * Where proposals wait, workspace-relative. The default is local to this machine; a folder
     * outside .wiki/ can be committed so a team reviews in git. Never under wiki/ or raw/.
     */
    reviewFolder: z
      .string()
      .min(1)
      .default('.wiki/proposals')
      .refine((f) => !f.startsWith('/') && !f.includes('\\') && !f.split('/').some((s) => s === '..' || s === '.'), 'a folder inside the workspace, with / between folders')
      .refine((f) => !['wiki', 'raw', '.git'].includes(f.split('/')[0] ?? ''), 'not under wiki/, raw/ or .git/ (proposals are not pages or sources)'),
    sandbox: z
      .object({
        /**
         * Extra files and folders no tool may read or write, gitignore-style: a bare name
         * ("secrets", "*.p12") at any depth, a path with `/` from the workspace root
         * ("private/secret.md", "private/**", "**\/drafts"); `*`, `?` and `**` wildcards.
         */
        deny: z
          .array(
            z
              .string()
              .min(1)
              .refine((entry) => !entry.includes('\\'), 'use / between folders, not \\')
              .refine((entry) => !entry.startsWith('!'), 'exceptions (!pattern) are not supported: list only what to deny')
              .refine((entry) => !entry.split('/').includes('..'), 'a pattern names paths inside the workspace: no ".."')
              .refine((entry) => entry.replace(/\/+/g, '') !== '', 'name a file or folder, not the workspace root'),
          )
          .default([]),
      })
      .strict()
      .prefault({}),
    limits: z
      .object({
        /** Largest page write_file accepts, in bytes. */
        pageWriteBytes: z.number().int().min(1024).default(1024 * 1024),
        /** Largest text one append_to_file call adds, in bytes. */
        appendBytes: z.number().int().min(256).default(64 * 1024),
        /** Tool calls run per model turn; the rest are answered with an error and not run. */
        toolCallsPerTurn: z.number().int().min(1).max(10_000).default(64),
        /** Bytes of tool results returned to the model per turn; later read results are withheld with an error. */
        toolResultBytesPerTurn: z.number().int().min(16 * 1024).default(512 * 1024),
        /** Deepest element nesting of an HTML source; a deeper one is refused (its reader is quadratic in depth). */
        htmlDepth: z.number().int().min(8).default(256),
        /** Bytes a PDF's compressed streams may inflate to (images aside); a PDF past it is refused. */
        pdfInflatedBytes: z.number().int().min(1024).default(256 * 1024 * 1024),
        /** Pages a PDF may have; a longer one is refused. */
        pdfPages: z.number().int().min(1).default(2000),
        /** search_wiki calls run per model turn; the rest are answered with an error and not run. */
        searchesPerTurn: z.number().int().min(1).max(10_000).default(16),
        /** Longest search_wiki query, in characters; a longer one is refused. */
        searchQueryChars: z.number().int().min(64).default(2000),
        /** Largest transcript line (.wiki/runs/*.jsonl) in bytes; longer events have their long strings cut, with a marker. */
        transcriptEventBytes: z.number().int().min(16 * 1024).default(2 * 1024 * 1024),
      })
      .strict()
      .prefault({}),
    ingest: z
      .object({
        /** Sources `wiki ingest` runs at once, each its own agent run (`--jobs` overrides it). */
        jobs: z.number().int().min(1).max(32).default(4),
        /** Tokens one source's run may use (`maxTokens` bounds the whole command); unset = no cap. */
        maxTokensPerSource: z.number().int().min(1).optional(),
        /** Estimated USD one source's run may cost (`maxCost` bounds the whole command); unset = no cap. */
        maxCostPerSource: z.number().min(0).optional(),
      })
      .strict()
      .prefault({}),
    /**
     * Where search keeps its index: `files` (`.wiki/search/`, one per checkout) or `postgres`,
     * one database shared by every replica (src/store/postgres/). The database's address comes
     * from WIKI_DATABASE_URL, else `url`, else libpq's PGHOST/PGPORT/PGDATABASE/PGUSER; a
     * password never lives in this committed file (PGPASSWORD, ~/.pgpass or the variable).
     */
    store: z
      .object({
        kind: z.enum(['files', 'postgres']).default('files'),
        url: z
          .string()
          .url()
          .refine((url) => !urlHasPassword(url), 'a database URL without a password: the file is committed; give the password in PGPASSWORD or ~/.pgpass, or the whole URL in WIKI_DATABASE_URL')
          .optional(),
        /**
         * Where the semantic lane's vectors are ranked: `pgvector` (a vector column ranked by the
         * database; an error where the server lacks the extension), `arrays` (real[] columns ranked
         * in each process), `auto` (pgvector where the server has it).
         */
        vectors: z.enum(['auto', 'pgvector', 'arrays']).default('auto'),
      })
      .strict()
      .prefault({}),
    facts: z
      .object({
        /** What one fact is: a sentence, or a whole paragraph. */
        grain: z.enum(['sentence', 'paragraph']).default('sentence'),
        /** Edit similarity (0–1) above which a changed sentence of the same source rewords a fact instead of adding one. */
        similarity: z.number().min(0).max(1).default(0.85),
        /** Sources larger than this many bytes are not segmented into facts (extraction runs at well under 1 MB/s). */
        maxSourceBytes: z.number().int().min(1024).default(8 * 1024 * 1024),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type WikiConfig = z.infer<typeof configSchema>;

/** Whether a URL carries a password (`postgres://user:secret@host/db`). */
function urlHasPassword(url: string): boolean {
  try {
    return new URL(url).password !== '';
  } catch {
    return false;
  }
}

export { CONFIG_FILE, ENV_OVERRIDES, SECRET_ENV } from './sources.js';

/** Every settable dotted key, unset optional ones included, read off the schema itself. */
export function configKeys(): string[] {
  return objectKeys(configSchema as unknown as ZodLike, '');
}

interface ZodLike {
  def: { type: string; shape?: Record<string, ZodLike>; innerType?: ZodLike };
}

function objectKeys(schema: ZodLike, prefix: string): string[] {
  let inner = schema;
  while (inner.def.innerType && inner.def.type !== 'object') inner = inner.def.innerType;
  if (inner.def.type !== 'object' || !inner.def.shape) return prefix ? [prefix] : [];
  return Object.entries(inner.def.shape).flatMap(([key, child]) => objectKeys(child, prefix ? `${prefix}.${key}` : key));
}
