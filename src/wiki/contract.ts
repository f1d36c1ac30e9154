import { z } from 'zod';

/**
 * The machine-read page contract from schema.md's frontmatter. The same file's prose is
 * what the model is told, so one edit changes both what is asked and what is enforced.
 */
const pageTypeSchema = z.object({
  folder: z
    .string()
    .regex(/^wiki\/[a-z0-9][a-z0-9_-]*$/, 'must be a folder directly under wiki/, e.g. wiki/concepts'),
  required: z.array(z.string().min(1)).default([]),
  description: z.string().optional(),
});

export const contractSchema = z.object({
  version: z.literal(1),
  key_pattern: z
    .string()
    .refine((pattern) => {
      try {
        new RegExp(pattern);
        return true;
      } catch {
        return false;
      }
    }, 'must be a valid regular expression'),
  index: z.string().regex(/^wiki\/.+\.md$/, 'must be a .md file under wiki/'),
  log: z.string().regex(/^wiki\/.+\.md$/, 'must be a .md file under wiki/'),
  required: z.array(z.string().min(1)).default(['title', 'summary']),
  types: z
    .record(z.string().regex(/^[a-z][a-z0-9-]*$/, 'type names are lowercase words'), pageTypeSchema)
    .refine((types) => Object.keys(types).length > 0, 'at least one page type is needed'),
});

export type Contract = z.infer<typeof contractSchema>;
export type PageTypeContract = z.infer<typeof pageTypeSchema>;

export interface Schema {
  contract: Contract;
  /** The prose of schema.md: conventions and workflows given to the model verbatim. */
  body: string;
  /** The whole file, as given to the model in the system prompt. */
  text: string;
}

/** The page type whose folder holds `pagePath` (workspace-relative), if any. */
export function typeForPath(contract: Contract, pagePath: string): string | undefined {
  for (const [type, def] of Object.entries(contract.types)) {
    if (pagePath.startsWith(`${def.folder}/`)) return type;
  }
  return undefined;
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
