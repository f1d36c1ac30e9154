import path from 'node:path';
import { toPosixRelative } from '../util/fs.js';
import { mapLimited } from '../util/map-limited.js';
import { slugify } from '../wiki/slug.js';
import { OversizeError, formatBytes, openUrl, type RequestOptions } from './http.js';
import { placeFile } from './place-file.js';

export interface SavedAssets {
  /** Image URL → path relative to the markdown file that links it (e.g. `assets/fig-1.png`). */
  links: Map<string, string>;
  /** Workspace-relative paths of the saved (or reused) files. */
  saved: string[];
  warnings: string[];
}

export interface AssetOptions extends RequestOptions {
  maxAssetBytes: number;
  maxAssets: number;
}

const PARALLEL_DOWNLOADS = 4;

const IMAGE_EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/pjpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/avif': '.avif',
  'image/svg+xml': '.svg',
  'image/bmp': '.bmp',
  'image/x-icon': '.ico',
  'image/vnd.microsoft.icon': '.ico',
  'image/tiff': '.tif',
};

/**
 * Download the small images among `urls` into `root/raw/assets/`. Anything that goes wrong
 * with one image (too big, not an image, unreachable) becomes a warning, never an error.
 */
export async function saveImageAssets(urls: string[], root: string, options: AssetOptions): Promise<SavedAssets> {
  const result: SavedAssets = { links: new Map(), saved: [], warnings: [] };
  const fetchable = urls.filter((url) => /^https?:\/\//i.test(url));
  if (fetchable.length > options.maxAssets) {
    result.warnings.push(`${fetchable.length - options.maxAssets} of ${fetchable.length} images not saved (at most ${options.maxAssets} per page)`);
  }
  const wanted = fetchable.slice(0, options.maxAssets);
  const downloads = await mapLimited(wanted, PARALLEL_DOWNLOADS, (url) => downloadImage(url, options));

  // Placed one at a time so two images with the same file name get distinct suffixes.
  const assetDir = path.join(root, 'raw', 'assets');
  for (const [index, download] of downloads.entries()) {
    const url = wanted[index];
    if (url === undefined) continue;
    if ('problem' in download) {
      result.warnings.push(`image ${url} not saved: ${download.problem}`);
      continue;
    }
    const placed = await placeFile(assetDir, assetBaseName(url), download.extension, download.bytes);
    const relative = toPosixRelative(root, placed.absPath);
    result.links.set(url, `assets/${path.basename(placed.absPath)}`);
    if (!result.saved.includes(relative)) result.saved.push(relative);
  }
  return result;
}

type Download = { bytes: Uint8Array; extension: string } | { problem: string };

async function downloadImage(url: string, options: AssetOptions): Promise<Download> {
  try {
    const response = await openUrl(url, options);
    if (response.status >= 400) {
      await response.discard();
      return { problem: `HTTP ${response.status}` };
    }
    if (!response.mime.startsWith('image/')) {
      await response.discard();
      return { problem: `not an image (${response.mime || 'no content type'})` };
    }
    let bytes: Uint8Array;
    try {
      bytes = await response.readBody(options.maxAssetBytes);
    } catch (error) {
      if (error instanceof OversizeError) return { problem: `larger than ${formatBytes(options.maxAssetBytes)}` };
      throw error;
    }
    return { bytes, extension: IMAGE_EXTENSIONS[response.mime] ?? extensionFromUrl(url) ?? '.img' };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

function assetBaseName(url: string): string {
  const { pathname, hostname } = new URL(url);
  const file = safeDecode(path.posix.basename(pathname)).replace(/\.[a-z0-9]{1,5}$/i, '');
  return slugify(file) || slugify(hostname) || 'image';
}

function safeDecode(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}

function extensionFromUrl(url: string): string | undefined {
  const extension = path.posix.extname(new URL(url).pathname).toLowerCase();
  return /^\.[a-z0-9]{1,5}$/.test(extension) ? extension : undefined;
}
