import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A secret that must never come back through any tool. */
export const SECRET = 'hunter2-mcp-secret-value';

export const SAMPLE_PAGES: Record<string, string> = {
  'wiki/concepts/scaled-dot-product-attention.md': `---
title: Scaled dot-product attention
summary: Attention weights from query-key dot products scaled by the square root of the dimension
type: concept
tags: [attention, transformers]
refs: [multi-head-attention]
sources: [raw/attention-paper.md]
created: 2026-01-10
updated: 2026-01-10
---
# Scaled dot-product attention

Queries are compared with keys; the softmax of the scaled scores weights the values.
It is the core operation of the [[transformer]].
`,
  'wiki/concepts/multi-head-attention.md': `---
title: Multi-head attention
summary: Several attention heads run in parallel over learned projections
type: concept
tags: [attention]
sources: [raw/attention-paper.md]
created: 2026-01-10
updated: 2026-01-10
---
# Multi-head attention

Each head applies [[scaled-dot-product-attention]] to its own projection of the input.
`,
  'wiki/concepts/positional-encoding.md': `---
title: Positional encoding
summary: Sinusoids added to embeddings so order is visible to attention
type: concept
tags: [Transformers]
sources: [raw/attention-paper.md]
created: 2026-01-11
updated: 2026-01-11
---
# Positional encoding

Order information for the [[transformer]]; compare [[relative-position-bias]].
`,
  'wiki/entities/transformer.md': `---
title: Transformer
summary: Sequence model built from attention and feed-forward layers
type: entity
tags: [architecture]
refs: [scaled-dot-product-attention, multi-head-attention]
sources: [raw/attention-paper.md]
created: 2026-01-10
updated: 2026-01-10
---
# Transformer

An encoder-decoder architecture without recurrence.
`,
  'wiki/sources/attention-paper.md': `---
title: Attention Is All You Need
summary: The 2017 paper that introduced the Transformer
type: source
tags: [paper]
refs: [transformer]
sources: [raw/attention-paper.md]
created: 2026-01-09
updated: 2026-01-09
---
# Attention Is All You Need

Introduces the [[transformer]], [[multi-head-attention]] and [[positional-encoding]].
`,
};

/**
 * The sample pages, their raw source, and bait: a secret in .env, in .wiki/ and in a
 * hidden folder under wiki/, and a page-looking symbolic link that points at .env.
 */
export async function writeSampleWiki(root: string): Promise<void> {
  for (const [file, text] of Object.entries(SAMPLE_PAGES)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  await writeFile(path.join(root, 'raw/attention-paper.md'), '# Attention Is All You Need\n\nThe paper.\n');
  await writeFile(path.join(root, '.env'), `OPENAI_API_KEY=${SECRET}\n`);
  await mkdir(path.join(root, '.wiki'), { recursive: true });
  await writeFile(path.join(root, '.wiki/secret-notes.md'), `---\ntitle: Secret\n---\n${SECRET}\n`);
  await mkdir(path.join(root, 'wiki/.hidden'), { recursive: true });
  await writeFile(path.join(root, 'wiki/.hidden/hidden-page.md'), `---\ntitle: Hidden\nsummary: ${SECRET}\n---\n${SECRET}\n`);
  await symlink('../../.env', path.join(root, 'wiki/concepts/leaked-env.md'));
}
