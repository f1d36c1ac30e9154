import type { z } from 'zod';
import type { contractSchema, pageTypeSchema } from './contract-schema.js';

/**
 * The machine-read page contract from schema.md's frontmatter. The same file's prose is
 * what the model is told, so one edit changes both what is asked and what is enforced.
 * Its validation schema lives in contract-schema.ts, so that importing these types and
 * helpers does not load the schema library.
 */
export type Contract = z.infer<typeof contractSchema>;
export type PageTypeContract = z.infer<typeof pageTypeSchema>;

export interface Schema {
  contract: Contract;
  /** The prose of schema.md: conventions and workflows given to the model verbatim. */
  body: string;
  /** The whole file, as given to the model in the system prompt. */
  text: string;
}

/**
 * The page type whose folder holds `pagePath` (workspace-relative), if any. A user's
 * scratch page (`wiki/user/<name>/concepts/x.md`) is typed by the folder it would have
 * in the team's wiki.
 */
export function typeForPath(contract: Contract, pagePath: string): string | undefined {
  const teamPath = pagePath.replace(/^wiki\/user\/[^/]+\/(?=.+\/)/, 'wiki/');
  for (const [type, def] of Object.entries(contract.types)) {
    if (teamPath.startsWith(`${def.folder}/`)) return type;
  }
  return undefined;
}

/**
 * A page file of a page folder: markdown in a type folder of the contract, the team's or a
 * scratch scope's, and none of the tool's own files. What the model may write, and so all
 * a run can produce: a source's pages in the ingest record are these and nothing else.
 */
export function inPageFolder(contract: Contract, pagePath: string): boolean {
  return pagePath.endsWith('.md') && typeForPath(contract, pagePath) !== undefined && !isSpecialPage(contract, pagePath) && !pagePath.split('/').some((part) => part === '..' || part.startsWith('.'));
}

export function folderForType(contract: Contract, type: string): string | undefined {
  return contract.types[type]?.folder;
}

/** Fields a page of `type` must carry: the global list plus the type's own. */
export function requiredFields(contract: Contract, type: string | undefined): string[] {
  const own = type ? (contract.types[type]?.required ?? []) : [];
  return [...new Set([...contract.required, ...own])];
}

/** The generated hub-and-spoke catalog page of one type, beside the index: `wiki/index-<type>.md`. */
export function spokePagePath(contract: Contract, type: string): string {
  return contract.index.replace(/\.md$/, `-${type}.md`);
}

/** Special files (index, log, hub spokes) that are not content pages. */
export function isSpecialPage(contract: Contract, pagePath: string): boolean {
  return specialPagesOf(contract).has(pagePath);
}

/**
 * The special paths of each contract, worked out once: a scan asks for every page, and
 * spelling out the spoke paths each time was a measurable share of it. A contract is
 * never changed once read, so its object identifies its paths.
 */
const specialPages = new WeakMap<Contract, ReadonlySet<string>>();

function specialPagesOf(contract: Contract): ReadonlySet<string> {
  let paths = specialPages.get(contract);
  if (!paths) {
    paths = new Set([contract.index, contract.log, ...Object.keys(contract.types).map((type) => spokePagePath(contract, type))]);
    specialPages.set(contract, paths);
  }
  return paths;
}
