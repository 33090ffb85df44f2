// The index panel's page. Everything shown is set as text (never as HTML), so no path, symbol or code can
// inject markup. The token came in the address; every API call sends it back in a header. Highlight (highlight.js)
// and the root switcher (roots.js) come before this script in the page.
const TOKEN = new URLSearchParams(location.search).get('token') || '';
/** Without the event stream: how often the task is asked for while a run is active, and while idle (another surface may start one). */
const POLL_RUNNING_MS = 400;
const POLL_IDLE_MS = 2000;
const ACTIVE = new Set(['running', 'cancelling']);
const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const asked = generation;
  const init = { headers: { 'x-ocrag-token': TOKEN } };
  if (body !== undefined) {
    init.method = 'POST';
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(rooted(path), init);
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  // Switched meanwhile: the answer is another root's, and whoever waits for it waits for nothing.
  if (asked !== generation) return new Promise(() => undefined);
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === 'class') node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

const short = (sha) => (sha ? sha.slice(0, 8) : 'none');
const plural = (n, word) => `${n.toLocaleString()} ${word}${n === 1 ? '' : 's'}`;

/** "3 min ago", "2 h ago", "4 days ago": how long since an ISO time. */
function ago(iso) {
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return plural(Math.floor(s / 86400), 'day') + ' ago';
}

/** 75 s → "1 min 15 s". */
function duration(seconds) {
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

// ---- repository state ----
/** When HEAD's index was made, as the idle task line says it too. */
let indexedAt = null;
async function loadState() {
  try {
    const s = await api('/api/state');
    $('root').textContent = s.root;
    // A plain folder has no branch nor HEAD: those rows are not shown at all.
    $('root-label').textContent = s.plainFolder ? 'folder' : 'repository';
    for (const node of document.querySelectorAll('.git-only')) node.hidden = s.plainFolder;
    document.title = `ocrag · ${s.root.split('/').pop() || s.root}`;
    $('branch').textContent = s.plainFolder ? 'plain folder (no git)' : s.branch ?? 'detached HEAD';
    $('head').textContent = s.plainFolder ? '—' : short(s.head);
    const counts = `(${plural(s.files, 'file')}, ${plural(s.chunks, 'chunk')})`;
    $('indexed').textContent = s.plainFolder ? (s.upToDate ? `its files as they are now ${counts}` : 'not indexed yet') : s.indexedCommit ? `${short(s.indexedCommit)} ${counts}` : 'not indexed yet';
    indexedAt = s.indexedAt;
    $('indexed-at').textContent = indexedAt ? `${new Date(indexedAt).toLocaleString()} (${ago(indexedAt)})` : 'never';
    $('indexed-at').title = indexedAt ?? '';
    const badges = $('badges');
    badges.replaceChildren();
    const badge = (kind, text) => badges.append(el('span', { class: `badge ${kind}`, 'data-badge': kind }, text));
    if (s.error) badge('fail', s.error);
    else if (s.plainFolder) badge(s.upToDate ? 'ok' : 'warn', s.upToDate ? 'searched as it is now' : 'not indexed');
    else if (!s.indexedCommit) badge('warn', 'not indexed');
    else if (s.upToDate) badge('ok', 'up to date with HEAD');
    else badge('warn', `behind HEAD (indexed ${short(s.indexedCommit)})`);
    if (s.uncommittedChanges) badge('warn', `dirty: ${s.uncommittedChanges} uncommitted change${s.uncommittedChanges === 1 ? '' : 's'}`);
    else if (s.uncommittedChanges === 0) badge('ok', 'clean work tree');
    showSkipped(s.skipped || {});
    showTask(s.task);
  } catch (e) {
    $('badges').replaceChildren(el('span', { class: 'badge fail' }, e.message));
  }
}

/** The files left out of the index, a row per reason: how many, and some of them. */
function showSkipped(skipped) {
  const rows = Object.entries(skipped).sort((a, b) => b[1].count - a[1].count);
  const total = rows.reduce((n, [, r]) => n + r.count, 0);
  $('skipped-info').textContent = total ? `${plural(total, 'file')} left out of the index (${rows.map(([reason, r]) => `${reason}: ${r.count}`).join(', ')})` : 'no file was skipped';
  $('skipped').hidden = total === 0;
  $('skipped').tBodies[0].replaceChildren(...rows.map(([reason, r]) =>
    el('tr', { 'data-reason': reason }, el('td', {}, reason), el('td', {}, r.count),
      el('td', { class: 'examples' }, r.examples.join(', ') + (r.count > r.examples.length ? `, and ${r.count - r.examples.length} more` : '')))));
}

// ---- the index run ----
let lastState = null;
/** The task shown: Cancel names it, so a run someone else started since is never stopped by mistake. */
let taskId = null;
function showTask(t) {
  taskId = t.id;
  const active = ACTIVE.has(t.state);
  $('progress').value = t.state === 'idle' ? 0 : t.percent;
  $('progress').dataset.state = t.state;
  $('index').disabled = active;
  $('rebuild').disabled = active;
  $('cancel').disabled = t.state !== 'running';
  $('task').textContent = t.state === 'idle' ? `idle${indexedAt ? ` · last indexed ${ago(indexedAt)}` : ''}` : active ? runningLine(t) : endedLine(t);
  const warnings = t.warnings || [];
  $('task-warning').hidden = warnings.length === 0;
  $('task-warning').textContent = warnings.join(' · ');
  // A run that ended changes what the header, the sources and the checks show.
  if (lastState && ACTIVE.has(lastState) && !active) {
    loadState();
    loadSources();
    loadDoctor();
  }
  lastState = t.state;
}

/** Phase, percent, files and chunks stored, the recent rate (none in a phase that stores no chunks), time since the start and the server's estimate of the time left. */
function runningLine(t) {
  const elapsed = t.startedAt ? (Date.now() - Date.parse(t.startedAt)) / 1000 : null;
  const left = t.secondsLeft ?? null;
  return [
    `${t.kind} run ${t.state}${t.phase ? ` (${t.phase})` : ''}`,
    `${t.percent}%`,
    `${t.files.done}/${t.files.total} files, ${plural(t.chunks, 'chunk')}`,
    ...(t.chunksPerSecond !== null && t.chunksPerSecond !== undefined ? [`${t.chunksPerSecond} chunks/s`] : []),
    ...(elapsed !== null ? [`${duration(elapsed)} elapsed`] : []),
    ...(left !== null ? [`about ${duration(left)} left`] : []),
    `task ${t.id}`,
  ].join(' · ');
}

function endedLine(t) {
  const took = t.startedAt && t.finishedAt ? ` in ${duration((Date.parse(t.finishedAt) - Date.parse(t.startedAt)) / 1000)}` : '';
  // A finished run shows what search sees, the header's numbers; a stopped one what it stored.
  const counts = t.state === 'done' ? `${plural(t.files.total, 'file')}, ${plural(t.chunks, 'chunk')}` : `${t.files.done}/${t.files.total} files, ${plural(t.chunks, 'chunk')}`;
  return `${t.kind} run ${t.state} at ${new Date(t.finishedAt).toLocaleTimeString()}${took} · ${counts}${t.errors.length ? ` · ${t.errors.join('; ')}` : ''} · task ${t.id}`;
}

/** Ends the following of the root shown before a switch. */
let stopFollowing = () => undefined;
/** Follows the tasks as server-sent events (read through fetch, which can send the token header); polls when the stream is gone. */
async function followTasks() {
  const following = generation;
  let stopped = false;
  let reader = null;
  stopFollowing = () => {
    stopped = true;
    reader?.cancel().catch(() => undefined);
  };
  try {
    const res = await fetch(rooted('/api/events'), { headers: { 'x-ocrag-token': TOKEN } });
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    if (stopped) return void reader.cancel().catch(() => undefined);
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (stopped) return;
      if (done) break;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer.slice(0, end).split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
        buffer = buffer.slice(end + 2);
        if (data) showTask(JSON.parse(data));
      }
    }
  } catch {
    // Fall through to polling.
  }
  if (!stopped) pollTask(following);
}

async function pollTask(following) {
  if (following !== generation) return;
  let delay = POLL_IDLE_MS;
  try {
    const t = await api('/api/task');
    showTask(t);
    if (ACTIVE.has(t.state)) delay = POLL_RUNNING_MS;
  } catch (e) {
    $('task').textContent = e.message;
  }
  setTimeout(() => pollTask(following), delay);
}

async function act(path, body) {
  try {
    const r = await api(path, body);
    showTask(r.task);
  } catch (e) {
    $('task').textContent = e.message;
  }
}

// ---- search ----
/** The code of a result, a line at a time: its number, then its syntax pieces with the query's words marked in them. */
function codeBlock(result, mark) {
  const lines = result.text.split('\n');
  const width = String(result.startLine + lines.length - 1).length;
  const pre = el('pre', { 'data-language': result.language });
  let carry = null;
  lines.forEach((line, i) => {
    const { pieces, carry: open } = Highlight.tokens(line, result.language, carry);
    carry = open;
    const nodes = pieces.map(([text, cls]) => {
      const marked = mark(text).map(([part, hit]) => (hit ? el('mark', {}, part) : part));
      return cls ? el('span', { class: `tok-${cls}` }, ...marked) : marked;
    });
    pre.append(el('span', { class: 'gutter' }, `${String(result.startLine + i).padStart(width)}  `), ...nodes.flat(), '\n');
  });
  return pre;
}

function resultItem(hit, mark) {
  const where = `${hit.path}:${hit.startLine}-${hit.endLine}`;
  // A name that is not plain UTF-8 shows as people read it; its exact, quoted form is in the tooltip (and no editor link: the exact name is unknown).
  const location = hit.editorUrl
    ? el('a', { class: 'location', href: hit.editorUrl, title: `open in your editor: ${hit.editorUrl} (editorLink in .ocrag/config.json)` }, where)
    : el('span', { class: 'location', ...(hit.quotedPath ? { title: `exact name: ${hit.quotedPath}` } : {}) }, where);
  return el('li', { class: 'result' },
    el('div', { class: 'result-head' },
      location,
      ...(hit.symbol ? [el('span', { class: 'symbol' }, hit.symbol)] : []),
      el('span', { class: 'lang' }, hit.source ? `${hit.language} · source ${hit.source}` : hit.language),
      el('span', { class: 'score' }, `score ${hit.score.toFixed(3)}`)),
    codeBlock(hit, mark));
}

async function search(query, all = false) {
  $('search-info').textContent = 'searching…';
  $('results').replaceChildren();
  const params = new URLSearchParams({ q: query, k: $('k').value || '10' });
  if (all) params.set('all', '1');
  for (const name of ['path', 'language', 'source']) if ($(name).value.trim()) params.set(name, $(name).value.trim());
  try {
    const r = await api(`/api/search?${params}`);
    const mark = Highlight.marker(query);
    const filters = Object.entries(r.filters).filter(([, v]) => v !== null).map(([k, v]) => `${k} ${v}`);
    const within = filters.length ? ` (${filters.join(', ')})` : '';
    $('search-info').textContent = `${plural(r.results.length, 'result')}${within} in ${r.latencyMs} ms${r.notice ? ` · ${r.notice}` : ''}`;
    if (r.noMatch && all) $('search-info').textContent = r.noMatch;
    else if (r.noMatch) {
      // The relevance rule said no (or nothing of the language was among the best): its words, and a way to see the closest chunks anyway.
      const anyway = document.createElement('button');
      anyway.type = 'button';
      anyway.className = 'small';
      anyway.textContent = 'show the closest anyway';
      anyway.addEventListener('click', () => search(query, true));
      $('search-info').replaceChildren(`${r.noMatch} `, anyway);
    }
    $('results').replaceChildren(...r.results.map((hit) => resultItem(hit, mark)));
  } catch (e) {
    $('search-info').textContent = e.message;
  }
}

// ---- sources and doctor ----
async function loadSources() {
  try {
    const r = await api('/api/sources');
    $('sources-info').textContent = r.sources.length ? `${r.sources.length} added source${r.sources.length === 1 ? '' : 's'}` : 'no sources added (ocrag add PATH adds one)';
    $('sources').hidden = r.sources.length === 0;
    $('sources').tBodies[0].replaceChildren(...r.sources.map((s) => el('tr', {}, el('td', {}, s.name), el('td', { class: 'path' }, s.root), el('td', { title: s.addedAt }, new Date(s.addedAt).toLocaleString()))));
    const chosen = $('source').value;
    $('source').replaceChildren(el('option', { value: '' }, 'any'), ...r.sources.map((s) => el('option', { value: s.name }, s.name)));
    $('source').value = r.sources.some((s) => s.name === chosen) ? chosen : '';
    $('files-summary').textContent = r.filesError ?? `${r.totalFiles} files search sees${r.totalFiles > r.files.length ? ` (first ${r.files.length} shown)` : ''}`;
    $('files').tBodies[0].replaceChildren(...r.files.map((f) =>
      el('tr', {}, el('td', {}, f.chunks), el('td', { class: 'path' }, f.quotedPath ?? f.path), el('td', {}, f.reason ? `${f.state}: ${f.reason}` : f.state))));
  } catch (e) {
    $('sources-info').textContent = e.message;
  }
}

async function loadDoctor() {
  $('doctor').replaceChildren(el('li', { class: 'note' }, 'checking…'));
  try {
    const checks = await api('/api/doctor');
    $('doctor').replaceChildren(...checks.map((c) => el('li', { 'data-status': c.status },
      el('span', { class: `check-status ${c.status}` }, c.status === 'fail' ? 'FAIL' : c.status),
      el('span', { class: 'check-name' }, c.name),
      el('span', { class: 'check-detail' }, c.detail),
      ...(c.fix ? [el('div', { class: 'fix' }, `fix: ${c.fix}`)] : []))));
  } catch (e) {
    $('doctor').replaceChildren(el('li', { class: 'note fail' }, e.message));
  }
}

$('roots').addEventListener('change', () => switchTo($('roots').value));
$('index').addEventListener('click', () => act('/api/index', {}));
$('rebuild').addEventListener('click', () => {
  // A rebuild embeds every file again, as long as a first index run: not something to start by a slip of the mouse.
  if (confirm('Rebuild the whole index? Every file is chunked and embedded again, which takes as long as the first index run.')) act('/api/rebuild', {});
});
$('cancel').addEventListener('click', () => act('/api/cancel', { id: taskId }));
$('search-form').addEventListener('submit', (e) => {
  e.preventDefault();
  search($('query').value.trim());
});
$('sources-refresh').addEventListener('click', loadSources);
$('doctor-refresh').addEventListener('click', loadDoctor);
loadRoots().then(() => {
  loadState();
  loadSources();
  loadDoctor();
  followTasks();
});
