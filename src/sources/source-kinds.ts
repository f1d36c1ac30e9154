import path from 'node:path';

/** Extensions `wiki ingest DIR` (and `wiki status`) take for sources; anything else under raw/ is skipped, with why. */
export const SOURCE_EXTENSIONS: readonly string[] = ['.md', '.markdown', '.txt', '.text', '.pdf', '.html', '.htm', '.xhtml', '.rst', '.org', '.csv', '.json', '.tex'];

/** Where HTML ingest keeps a page's images: files the sources use, not sources of their own. */
const ASSETS_FOLDER = 'raw/assets/';

const KIND_BY_EXTENSION: Record<string, string> = {
  '.png': 'an image', '.jpg': 'an image', '.jpeg': 'an image', '.gif': 'an image', '.webp': 'an image', '.svg': 'an image', '.bmp': 'an image', '.tif': 'an image', '.tiff': 'an image',
  '.mp3': 'audio', '.wav': 'audio', '.m4a': 'audio', '.mp4': 'a video', '.mov': 'a video', '.webm': 'a video',
  '.zip': 'an archive', '.gz': 'an archive', '.tar': 'an archive', '.7z': 'an archive',
  '.docx': 'a Word document', '.doc': 'a Word document', '.xlsx': 'a spreadsheet', '.xls': 'a spreadsheet', '.pptx': 'a slide deck', '.epub': 'an e-book',
};

export function isSourceFile(file: string): boolean {
  return SOURCE_EXTENSIONS.includes(path.extname(file).toLowerCase());
}

/** Why a file is not read as a source, in one phrase with what to do. */
export function unsupportedReason(file: string): string {
  const extension = path.extname(file).toLowerCase();
  const kind = KIND_BY_EXTENSION[extension];
  const what = extension === '' ? 'a file without an extension' : kind ? `${kind} (${extension})` : `a ${extension} file`;
  return `${what} is not a source wiki reads (it reads text, markdown, PDF and HTML)`;
}

/**
 * raw/'s files as sources and the rest, each with why it is skipped: the one story `wiki
 * status` and `wiki ingest raw/` tell. Images HTML ingest saved under raw/assets/ are neither.
 */
export function splitRawFiles(files: readonly string[]): { sources: string[]; unsupported: Array<{ path: string; reason: string }> } {
  const sources: string[] = [];
  const unsupported: Array<{ path: string; reason: string }> = [];
  for (const file of files) {
    if (file.startsWith(ASSETS_FOLDER)) continue;
    if (isSourceFile(file)) sources.push(file);
    else unsupported.push({ path: file, reason: unsupportedReason(file) });
  }
  return { sources, unsupported };
}
