import path from 'node:path';
import { ConfinedIo } from '../../confine/confined-io.js';
import { recordAfter, recordBefore } from '../../state/history.js';
import { forgetSource, loadManifest, MANIFEST_PATH, recordIngest, saveManifest, type Manifest } from '../../state/manifest.js';
import { loadStaleClaims, sameClaim, saveStaleClaims, type StaleClaim } from '../../state/stale-claims.js';
import { refreshFacts } from '../inspect/facts.js';
import type { Session } from '../run/session.js';
import { holdsClaim } from './stale-claims-of.js';
import { keepSourceText } from '../../state/source-texts.js';
import { currentSourceText } from './earlier-text.js';

/**
 * What `wiki rm` and a renamed source do besides their pages, in the run of `session`: the
 * same steps whether the command writes directly or a proposal of it is accepted.
 */

/** Sources leave raw/ (byte for byte into the run's history, so undo puts them back), the record, the stale claims and the facts. */
export async function removeSourceFiles(session: Session, sources: readonly string[], removedPages: readonly string[], onNotice?: (message: string) => void): Promise<void> {
  const io = new ConfinedIo(session.root);
  for (const source of sources) {
    const absolute = path.join(session.root, ...source.split('/'));
    const bytes = await io.readIfExists(absolute);
    if (bytes === undefined) continue;
    if (session.run) await recordBefore(session.run, source, bytes);
    await io.remove(absolute);
    if (session.run) await recordAfter(session.run, source, undefined);
    session.alsoChanged.add(source);
  }
  let manifest = await loadManifest(session.root);
  for (const source of sources) manifest = forgetSource(manifest, source);
  await saveManifest(session.root, manifest, session.run);
  session.alsoChanged.add(MANIFEST_PATH);
  const removed = new Set(sources);
  const claims = await loadStaleClaims(session.root);
  await saveStaleClaims(session.root, claims.filter((claim) => !removed.has(claim.source) && !removedPages.includes(claim.page)));
  await refreshFacts(session.root, session.ws.config).catch((error: unknown) => onNotice?.(`facts not refreshed: ${(error as Error).message}`));
}

/** Renamed sources: the record moves to the new path (nothing re-ingested), and so do their stale claims. */
export async function recordRenames(session: Session, manifest: Manifest, renames: ReadonlyArray<{ from: string; to: string }>): Promise<Manifest> {
  let next = manifest;
  for (const { from, to } of renames) {
    const entry = next.sources[from];
    if (entry) next = recordIngest(forgetSource(next, from), to, entry);
  }
  await saveManifest(session.root, next, session.run);
  session.alsoChanged.add(MANIFEST_PATH);
  const claims = await loadStaleClaims(session.root);
  if (claims.some((claim) => renames.some((r) => r.from === claim.source))) {
    await saveStaleClaims(session.root, claims.map((claim) => ({ ...claim, source: renames.find((r) => r.from === claim.source)?.to ?? claim.source })));
  }
  return next;
}

/**
 * A changed source's stale claims: those whose page still holds them are recorded (the
 * source's earlier ones replaced), and every other source's claims are kept while their page
 * still holds them. Returns the claims recorded for `source`.
 */
export async function recordStaleClaims(session: Session, source: string, claims: readonly StaleClaim[]): Promise<StaleClaim[]> {
  const open: StaleClaim[] = [];
  for (const claim of claims) {
    const text = await session.readIfExists(claim.page);
    if (text !== undefined && holdsClaim(text, claim)) open.push(claim);
  }
  const others = (await loadStaleClaims(session.root)).filter((kept) => kept.source !== source && !open.some((claim) => sameClaim(kept, claim)));
  const stillHeld: StaleClaim[] = [];
  for (const kept of others) {
    const text = await session.readIfExists(kept.page);
    if (text !== undefined && holdsClaim(text, kept)) stillHeld.push(kept);
  }
  await saveStaleClaims(session.root, [...stillHeld, ...open]);
  return open;
}

/**
 * The pages' citations of `source` now number the lines of its version `sha256` (moved by
 * `wiki lint --fix`, no model): the ingest record says so — the next ingest moves them from
 * there, never twice — and that version's text is kept for the diff of its next change.
 */
export async function recordFollowed(session: Session, source: string, sha256: string): Promise<void> {
  const manifest = await loadManifest(session.root);
  const entry = manifest.sources[source];
  if (!entry) return;
  const text = await currentSourceText(session.root, source);
  if (text !== undefined) await keepSourceText(session.root, sha256, text);
  await saveManifest(session.root, { version: 1, sources: { ...manifest.sources, [source]: { ...entry, followed: sha256 } } }, session.run);
  session.alsoChanged.add(MANIFEST_PATH);
}
