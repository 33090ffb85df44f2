// The index panel's page. Everything shown is set as text (never as HTML), so no path, symbol or code can
// inject markup. The token came in the address; every API call sends it back in a header.
'use strict';
const TOKEN = new URLSearchParams(location.search).get('token') || '';
/** Without the event stream: how often the task is asked for while a run is active, and while idle (another surface may start one). */
const POLL_RUNNING_MS = 400;
const POLL_IDLE_MS = 2000;
const ACTIVE = new Set(['running', 'cancelling']);
const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const init = { headers: { 'x-ocrag-token': TOKEN } };
  if (body !== undefined) {
    init.method = 'POST';
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
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

// ---- repository state ----
async function loadState() {
  try {
    const s = await api('/api/state');
    $('root').textContent = s.root;
    $('branch').textContent = s.plainFolder ? 'plain folder (no git)' : s.branch ?? 'detached HEAD';
    $('head').textContent = s.plainFolder ? '—' : short(s.head);
    const counts = `(${s.files} files, ${s.chunks} chunks)`;
    $('indexed').textContent = s.plainFolder ? (s.upToDate ? `its files as they are now ${counts}` : 'not indexed yet') : s.indexedCommit ? `${short(s.indexedCommit)} ${counts}` : 'not indexed yet';
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
    showTask(s.task);
  } catch (e) {
    $('badges').replaceChildren(el('span', { class: 'badge fail' }, e.message));
  }
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
  const counts = `${t.files.done}/${t.files.total} files, ${t.chunks} chunks`;
  $('task').textContent =
    t.state === 'idle' ? 'no index run yet'
      : active ? `${t.kind} run ${t.state}${t.phase ? ` (${t.phase})` : ''} · ${t.percent}% · ${counts} · ${t.chunksPerSecond} chunks/s · task ${t.id}`
        : `${t.kind} run ${t.state} at ${new Date(t.finishedAt).toLocaleTimeString()} · ${counts}${t.errors.length ? ` · ${t.errors.join('; ')}` : ''} · task ${t.id}`;
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

/** Follows the tasks as server-sent events (read through fetch, which can send the token header); polls when the stream is gone. */
async function followTasks() {
  try {
    const res = await fetch('/api/events', { headers: { 'x-ocrag-token': TOKEN } });
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
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
  pollTask();
}

async function pollTask() {
  let delay = POLL_IDLE_MS;
  try {
    const t = await api('/api/task');
    showTask(t);
    if (ACTIVE.has(t.state)) delay = POLL_RUNNING_MS;
  } catch (e) {
    $('task').textContent = e.message;
  }
  setTimeout(pollTask, delay);
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
const STOP_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'is', 'are', 'be', 'how', 'what', 'where', 'which', 'does', 'do', 'with']);
const HAN = /\p{Script=Han}+/gu;

/** The query's words to mark in code: each word, the parts of a camelCase or snake_case name, each Chinese run and its character pairs. */
function queryTerms(query) {
  const terms = new Set();
  for (const run of query.match(HAN) || []) {
    terms.add(run);
    for (let i = 0; i + 1 < run.length; i++) terms.add(run.slice(i, i + 2));
  }
  for (const word of query.replace(HAN, ' ').match(/[\p{L}\p{N}_$]+/gu) || []) {
    const wanted = (w) => !STOP_WORDS.has(w.toLowerCase());
    if (word.length >= 2 && wanted(word)) terms.add(word);
    for (const part of word.split(/_|(?<=[a-z0-9])(?=[A-Z])/)) if (part.length >= 3 && wanted(part)) terms.add(part);
  }
  return [...terms].sort((a, b) => b.length - a.length);
}

function highlighter(query) {
  const terms = queryTerms(query);
  if (terms.length === 0) return (text) => [text];
  const pattern = new RegExp(terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'giu');
  return (text) => {
    const out = [];
    let at = 0;
    for (const m of text.matchAll(pattern)) {
      if (m.index > at) out.push(text.slice(at, m.index));
      out.push(el('mark', {}, m[0]));
      at = m.index + m[0].length;
    }
    if (at < text.length) out.push(text.slice(at));
    return out;
  };
}

function codeBlock(result, mark) {
  const lines = result.text.split('\n');
  const width = String(result.startLine + lines.length - 1).length;
  const pre = el('pre');
  lines.forEach((line, i) => {
    pre.append(el('span', { class: 'gutter' }, `${String(result.startLine + i).padStart(width)}  `), ...mark(line), '\n');
  });
  return pre;
}

async function search(query) {
  $('search-info').textContent = 'searching…';
  $('results').replaceChildren();
  try {
    const r = await api(`/api/search?q=${encodeURIComponent(query)}&k=10`);
    const mark = highlighter(query);
    $('search-info').textContent = `${r.results.length} result${r.results.length === 1 ? '' : 's'} in ${r.latencyMs} ms${r.notice ? ` · ${r.notice}` : ''}`;
    for (const hit of r.results) {
      $('results').append(
        el('li', { class: 'result' },
          el('div', { class: 'result-head' },
            // A name that is not plain UTF-8 shows as people read it; its exact, quoted form is in the tooltip.
            el('span', { class: 'location', ...(hit.quotedPath ? { title: `exact name: ${hit.quotedPath}` } : {}) }, `${hit.path}:${hit.startLine}-${hit.endLine}`),
            el('span', { class: 'symbol' }, hit.symbol || ''),
            el('span', { class: 'score' }, `score ${hit.score.toFixed(3)}`)),
          codeBlock(hit, mark)));
    }
  } catch (e) {
    $('search-info').textContent = e.message;
  }
}

// ---- sources and doctor ----
async function loadSources() {
  try {
    const r = await api('/api/sources');
    $('sources-info').textContent = r.sources.length ? `${r.sources.length} added source${r.sources.length === 1 ? '' : 's'}` : 'no sources added (ocrag add PATH adds one)';
    $('sources').tBodies[0].replaceChildren(...r.sources.map((s) => el('tr', {}, el('td', {}, s.name), el('td', {}, s.root), el('td', {}, s.addedAt))));
    $('files-summary').textContent = `${r.totalFiles} files search sees${r.totalFiles > r.files.length ? ` (first ${r.files.length} shown)` : ''}`;
    $('files').tBodies[0].replaceChildren(...r.files.map((f) => el('tr', {}, el('td', {}, f.chunks), el('td', {}, f.quotedPath ?? f.path), el('td', {}, f.state))));
  } catch (e) {
    $('sources-info').textContent = e.message;
  }
}

async function loadDoctor() {
  $('doctor').replaceChildren(el('li', {}, 'checking…'));
  try {
    const checks = await api('/api/doctor');
    $('doctor').replaceChildren(...checks.map((c) => el('li', { 'data-status': c.status },
      el('span', { class: c.status }, c.status === 'fail' ? 'FAIL ' : `${c.status} `),
      el('span', { class: 'check-name' }, c.name), c.detail,
      ...(c.fix ? [el('div', { class: 'fix' }, `fix: ${c.fix}`)] : []))));
  } catch (e) {
    $('doctor').replaceChildren(el('li', { class: 'fail' }, e.message));
  }
}

$('index').addEventListener('click', () => act('/api/index', {}));
$('rebuild').addEventListener('click', () => act('/api/rebuild', {}));
$('cancel').addEventListener('click', () => act('/api/cancel', { id: taskId }));
$('search-form').addEventListener('submit', (e) => {
  e.preventDefault();
  search($('query').value.trim());
});
$('sources-refresh').addEventListener('click', loadSources);
$('doctor-refresh').addEventListener('click', loadDoctor);
loadState();
loadSources();
loadDoctor();
followTasks();
