import grayMatter from 'gray-matter';
import YAML from 'yaml';
import { parseYaml, useYamlLibrary } from './frontmatter-fields.js';

/**
 * The one frontmatter reader (pages, schema.md): gray-matter, configured here once with the
 * `yaml` library as its YAML engine, so dates stay the strings pages write. gray-matter's own
 * JSON and JavaScript engines are replaced by refusals: a block labelled `---js` would
 * otherwise be evaluated as code.
 *
 * Imported statically, so the bundle inlines gray-matter (and the second YAML library it
 * brings) into the chunk that reads frontmatter instead of resolving its many files at run
 * time. `wiki search` with a saved index and the search build worker never load this module.
 */
export interface FrontmatterReading {
  /** The parsed block, `{}` when there is none or it is empty; whatever the YAML holds (a mapping, a list, a string…). */
  data: unknown;
  /** The text after the closing `---` line (the whole text when there is no block). */
  body: string;
}

useYamlLibrary(YAML);

const refuse = (): never => {
  throw new Error('frontmatter is YAML');
};

const OPTIONS = { engines: { yaml: (block: string) => parseYaml(block) as object, json: refuse, javascript: refuse } };

/** Throws when the block is not valid YAML, or is labelled as another language (`---toml`). */
export function readFrontmatter(text: string): FrontmatterReading {
  try {
    const file = grayMatter(text, OPTIONS);
    return { data: file.data, body: file.content };
  } catch (error) {
    const label = grayMatter.language(text.replace(/^\uFEFF/, '')).name;
    if (label && !/^ya?ml$/i.test(label)) throw new Error(`the frontmatter is marked "${label}"; frontmatter is YAML`);
    throw error;
  }
}
