import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface SamplePage {
  path: string;
  frontmatter: string;
  body: string;
}

/**
 * A small research wiki in the shape the tool writes: three types, refs and inline links
 * in every Obsidian form ([[key]], [[key|label]], [[key#heading]]), an orphan, an archived
 * page, a link example inside code (not an edge), and text that tries to break out of an
 * HTML script element.
 */
export const SAMPLE_PAGES: SamplePage[] = [
  {
    path: 'wiki/sources/attention-is-all-you-need.md',
    frontmatter: `title: Attention Is All You Need
summary: The 2017 paper introducing the Transformer, built only from attention.
type: source
tags: [transformers, attention]
refs: [transformer, scaled-dot-product-attention]
sources: [raw/attention-is-all-you-need.md]`,
    body: `# Attention Is All You Need

Introduces the [[transformer]] and [[multi-head-attention|multi-head attention]].
Authors include [[ashish-vaswani]] at [[google-brain]].
`,
  },
  {
    path: 'wiki/sources/bert-paper.md',
    frontmatter: `title: "BERT: Pre-training of Deep Bidirectional Transformers"
summary: Masked-language-model pre-training of a Transformer encoder.
type: source
refs: [transformer]
sources: [raw/bert.md]`,
    body: `# BERT

Fine-tuned on [[squad]] among others; see [[transformer#Encoder]] for the architecture.
`,
  },
  {
    path: 'wiki/concepts/transformer.md',
    frontmatter: `title: Transformer
summary: Sequence model made of stacked self-attention and feed-forward layers.
type: concept
tags: [architecture]
refs: [multi-head-attention, positional-encoding]`,
    body: `# Transformer

## Encoder

Six layers of [[self-attention]] and feed-forward blocks ([[attention-is-all-you-need]]).

## Decoder

Masked [[self-attention|self attention]] plus cross-attention.
`,
  },
  {
    path: 'wiki/concepts/scaled-dot-product-attention.md',
    frontmatter: `title: Scaled dot-product attention
summary: softmax(QK^T / sqrt(d_k)) V — the attention used by the Transformer.
type: concept
refs: [multi-head-attention]`,
    body: `# Scaled dot-product attention

Scaling by sqrt(d_k) keeps the softmax out of its flat regions.
Used inside [[multi-head-attention#Heads|each head]].

Example syntax, not a link: \`[[not-a-page]]\`

\`\`\`markdown
[[also-not-a-page]]
\`\`\`
`,
  },
  {
    path: 'wiki/concepts/multi-head-attention.md',
    frontmatter: `title: Multi-head attention
summary: Several attention heads in parallel over learned projections.
type: concept
refs: [scaled-dot-product-attention]`,
    body: `# Multi-head attention

## Heads

Each head runs [[scaled-dot-product-attention]] on its own projection.
`,
  },
  {
    path: 'wiki/concepts/self-attention.md',
    frontmatter: `title: Self-attention
summary: Attention where queries, keys and values come from the same sequence.
type: concept`,
    body: `# Self-attention

A special case of [[scaled-dot-product-attention]]; order comes from [[positional-encoding]].
`,
  },
  {
    path: 'wiki/concepts/positional-encoding.md',
    frontmatter: `title: Positional encoding
summary: Sinusoids added to embeddings so attention can see order.
type: concept`,
    body: `# Positional encoding

Needed because [[self-attention]] is permutation-invariant.
`,
  },
  {
    path: 'wiki/concepts/recurrent-attention-notes.md',
    frontmatter: `title: Recurrent attention (old notes)
summary: Early notes on attention over RNN states, superseded by the Transformer pages.
type: concept
archived_since: 2026-01-02`,
    body: `# Recurrent attention

Superseded by [[transformer]].
`,
  },
  {
    path: 'wiki/entities/ashish-vaswani.md',
    frontmatter: `title: Ashish Vaswani
summary: First author of the Transformer paper.
type: entity`,
    body: `# Ashish Vaswani

Worked at [[google-brain]].
`,
  },
  {
    path: 'wiki/entities/google-brain.md',
    frontmatter: `title: Google Brain
summary: Research team at Google where the Transformer was developed.
type: entity`,
    body: `# Google Brain

Home of [[ashish-vaswani]] in 2017.
`,
  },
  {
    path: 'wiki/entities/squad.md',
    frontmatter: `title: SQuAD
summary: Stanford Question Answering Dataset, a reading-comprehension benchmark.
type: entity
tags: [dataset, benchmark]`,
    body: `# SQuAD

Questions over Wikipedia paragraphs.
`,
  },
  {
    path: 'wiki/entities/tricky-text.md',
    frontmatter: `title: Tricky "quoted" <b>title</b> & more
summary: A page whose text tries to break out of the HTML view's script element.
type: entity`,
    body: `# Tricky text

</script><script>window.__injected = true; alert("injected")</script>
<!-- a comment opener, a 'single' and "double" quote, \u2028 a line separator and {{data}} -->
Links still work: [[squad|the SQuAD dataset]].
`,
  },
];

/** Keys of the sample's content pages (index and log excluded). */
export const SAMPLE_KEYS = SAMPLE_PAGES.map((p) => path.posix.basename(p.path, '.md')).sort();

/** Pages that no other page links to. */
export const SAMPLE_ORPHANS = ['bert-paper', 'recurrent-attention-notes', 'tricky-text'];

/** An extra page with a link to a page that does not exist (a wiki mid-edit). */
export const BROKEN_PAGE: SamplePage = {
  path: 'wiki/concepts/draft-notes.md',
  frontmatter: `title: Draft notes
summary: Work in progress that links ahead to pages not yet written.
type: concept
refs: [transformer, not-yet-written]`,
  body: `# Draft notes

See [[also-missing]] and [[transformer]].
`,
};

/**
 * Write the sample pages into an initialised workspace at `root`, and list every page in
 * index.md's catalog as the tool does, so the index links to every page.
 */
export async function writeSampleWiki(root: string, options: { broken?: boolean } = {}): Promise<string[]> {
  const pages = options.broken ? [...SAMPLE_PAGES, BROKEN_PAGE] : SAMPLE_PAGES;
  for (const page of pages) {
    await mkdir(path.dirname(path.join(root, page.path)), { recursive: true });
    await writeFile(
      path.join(root, page.path),
      `---\n${page.frontmatter}\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\n${page.body}`,
    );
  }
  const indexPath = path.join(root, 'wiki/index.md');
  const index = await readFile(indexPath, 'utf8');
  const catalog = pages.map((p) => `- [[${path.posix.basename(p.path, '.md')}]]`).join('\n');
  await writeFile(indexPath, index.replace('<!-- wiki:catalog:end -->', `${catalog}\n<!-- wiki:catalog:end -->`));
  return pages.map((p) => path.posix.basename(p.path, '.md')).sort();
}
