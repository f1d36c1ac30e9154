import { git, GitMissingError } from './git-cli.js';

/**
 * The text of `relPath` as committed at HEAD and, during a merge, at MERGE_HEAD; none outside
 * a git repository or without git. Read through git's object store, never the work tree.
 */
export async function committedTexts(root: string, relPath: string): Promise<string[]> {
  const texts: string[] = [];
  for (const rev of ['HEAD', 'MERGE_HEAD']) {
    try {
      const result = await git(root, ['show', `${rev}:./${relPath}`]);
      if (result.code === 0) texts.push(result.stdout);
    } catch (error) {
      if (error instanceof GitMissingError) return texts;
      throw error;
    }
  }
  return texts;
}
