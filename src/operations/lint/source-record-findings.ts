import { WikiError } from '../../errors.js';
import { loadManifest, MANIFEST_PATH, type Manifest } from '../../state/manifest.js';
import { inPageFolder, type Contract } from '../../wiki/contract.js';
import { finding, type Finding } from '../../wiki/validate/finding.js';

/**
 * `source-record`: the committed ingest record names what stale marks and undo act on, and
 * a clone may bring it crafted. A record the reader refuses, and a source whose pages include
 * anything but page files of a page folder (log.md, index.md, a hub spoke), are reported.
 */
export async function sourceRecordFindings(root: string, contract: Contract): Promise<Finding[]> {
  let manifest: Manifest;
  try {
    manifest = await loadManifest(root, { migrate: false });
  } catch (error) {
    if (!(error instanceof WikiError)) throw error;
    return [finding('source-record', MANIFEST_PATH, error.message, { fix: error.hint ?? `restore ${MANIFEST_PATH} as the tool wrote it (\`git log -p ${MANIFEST_PATH}\`)` })];
  }
  const findings: Finding[] = [];
  for (const [source, entry] of Object.entries(manifest.sources).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const notPages = [...new Set([...entry.pages.created, ...entry.pages.updated])].filter((page) => !inPageFolder(contract, page)).sort();
    if (notPages.length === 0) continue;
    findings.push(
      finding('source-record', MANIFEST_PATH, `the record of ${source} names ${notPages.join(', ')} among its pages, which ${notPages.length === 1 ? 'is' : 'are'} no page file of a page folder: stale marks leave ${notPages.length === 1 ? 'it' : 'them'} alone`, {
        fix: `remove ${notPages.length === 1 ? 'it' : 'them'} from that line of ${MANIFEST_PATH} (\`git log -p ${MANIFEST_PATH}\` shows who added ${notPages.length === 1 ? 'it' : 'them'})`,
      }),
    );
  }
  return findings;
}
