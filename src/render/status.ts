import type { IndexStatus, RemoteStatus } from '../service/status.js';
import { formatBytes } from './bytes.js';
import type { Paint } from './text.js';

/** `ocrag status` as people read it (and the OpenCode plugin's ocrag_index_status): where, what is indexed, what was skipped. */
export function formatStatus(s: IndexStatus, p: Paint): string {
  const lines = s.plainFolder
    ? [
        `${p.bold('folder')}      ${s.root} (no git: the folder's files and its sources)`,
        `${p.bold('indexed')}     ${s.model ? p.green('ready') : p.yellow('never: run ocrag index')}`,
      ]
    : [
        `${p.bold('repository')}  ${s.root}`,
        `${p.bold('checked out')} ${s.branch ?? 'detached HEAD'} @ ${s.head?.slice(0, 8) ?? '(no commits)'}`,
        `${p.bold('indexed')}     ${s.indexed ? `${s.indexed.commit.slice(0, 8)} at ${s.indexed.indexedAt}` : 'never'}  ${indexState(s, p)}`,
      ];
  lines.push(
    `${p.bold('model')}       ${s.model ? `${s.model.id} (${s.model.dim}-d)` : `${s.configuredModel} (no index yet)`}`,
    `${p.bold('contents')}    ${s.files} files, ${s.blobs} blobs, ${s.chunks} chunks (${s.chunksStored} stored${s.plainFolder ? '' : ' across all branches'})`,
    `${p.bold('on disk')}     ${formatBytes(s.sizeOnDisk)}${s.chunksReclaimable ? `, ${s.chunksReclaimable} chunks reclaimable by ocrag gc` : ''}`,
  );
  if (!s.plainFolder) lines.push(`${p.bold('manifests')}   ${s.manifests.map((m) => `${m.branch ?? 'detached'}@${m.commit.slice(0, 8)} (${m.chunks} chunks, ~${formatBytes(m.approxBytes)}${m.keptByGc ? '' : ', dropped by gc'})`).join('\n              ') || 'none'}`);
  const added = s.sources.filter((src) => src.name);
  if (added.length) lines.push(`${p.bold('sources')}     ${added.map((src) => `${src.name} (${src.root}): ${src.files} files${src.skipped ? `, ${src.skipped} skipped` : ''}`).join('\n              ')}`);
  if (s.remote) lines.push(`${p.bold('remote')}      ${remoteLine(s.remote, p)}`);
  const reasons = Object.entries(s.skipped).sort((a, b) => b[1].count - a[1].count);
  if (reasons.length) {
    lines.push(p.bold('skipped'));
    for (const [reason, { count, examples }] of reasons) lines.push(`  ${reason}: ${count}  ${p.dim(examples.map(p.literal).join(', ') + (count > examples.length ? ', …' : ''))}`);
  }
  return lines.join('\n');
}

/** Nothing can be indexed before the first commit, so "run ocrag index" would only fail (exit 3). */
function indexState(s: IndexStatus, p: Paint): string {
  if (s.upToDate) return p.green('up to date');
  return p.yellow(s.head ? 'behind: run ocrag index (search does it too)' : 'nothing to index: commit something first');
}

/** `s3://team/org/repo reachable; last index run copied 14121 chunks of 839 blobs (and the search set) at …`. */
function remoteLine(r: RemoteStatus, p: Paint): string {
  const state = r.problem ? p.yellow(`${r.reachable ? 'reachable' : 'not reachable'}: ${r.problem}`) : p.green('reachable');
  const last = r.lastRun
    ? `last index run (${r.lastRun.commit.slice(0, 8)}, ${r.lastRun.at}) copied ${r.lastRun.chunks} chunks of ${r.lastRun.blobs} blobs, ${r.lastRun.contents} contents${r.lastRun.searchSet ? ' and the search set' : ''}`
    : 'nothing copied from it yet';
  return `${r.uri} ${state}; ${last}`;
}
