import { createRequire } from 'node:module';
import type GrayMatter from 'gray-matter';
import { parseYaml } from './frontmatter-fields.js';

/**
 * The one frontmatter reader (pages, schema.md): gray-matter, configured here once with the
 * `yaml` library as its YAML engine, so dates stay the strings pages write. gray-matter's own
 * JSON and JavaScript engines are replaced by refusals: a block labelled `---js` would
 * otherwise be evaluated as code.
 *
 * gray-matter is CommonJS and brings a second YAML library, so it is required on the first
 * read, not when this module loads: `wiki search` with a saved index and the search build
 * worker never read frontmatter this way and never load it.
 */
export interface FrontmatterReading {
  /** The parsed block, `{}` when there is none or it is empty; whatever the YAML holds (a mapping, a list, a string…). */
  data: unknown;
  /** The text after the closing `---` line (the whole text when there is no block). */
  body: string;
}

let grayMatter: typeof GrayMatter | undefined;

const refuse = (): never => {
  throw new Error('frontmatter is YAML');
};

const OPTIONS = { engines: { yaml: (block: string) => parseYaml(block) as object, json: refuse, javascript: refuse } };

/** Throws when the block is not valid YAML, or is labelled as another language (`---toml`). */
export function readFrontmatter(text: string): FrontmatterReading {
  grayMatter ??= createRequire(import.meta.url)('gray-matter') as typeof GrayMatter;
  try {
    const file = grayMatter(text, OPTIONS);
    return { data: file.data, body: file.content };
  } catch (error) {
    const label = grayMatter.language(text.replace(/^\uFEFF/, '')).name;
    if (label && !/^ya?ml$/i.test(label)) throw new Error(`the frontmatter is marked "${label}"; frontmatter is YAML`);
    throw error;
  }
}
