// The panel's root switcher: the repositories and folders indexed on this machine (GET /api/roots), one shown at a
// time. Every API call names the root shown (the server serves only listed ones); switching drops whatever answers
// for the one before are still on their way. Comes before panel.js in the page, whose functions it calls.
/** The root shown, as /api/roots names it ('' the one the panel started in): kept in the address, so a reload stays there. */
let ROOT = new URLSearchParams(location.search).get('root') || '';
/** Counts switches: an answer for the root shown before one never reaches the page. */
let generation = 0;

/** The API address for the root shown. */
function rooted(path) {
  if (!ROOT) return path;
  const url = new URL(path, location.origin);
  url.searchParams.set('root', ROOT);
  return url.pathname + url.search;
}

/** Fills the switcher; shown once there is a second root to switch to. A root no longer listed falls back to the first. */
async function loadRoots() {
  try {
    const { roots } = await api('/api/roots');
    const listed = roots.some((r) => !r.home && r.root === ROOT);
    $('roots').replaceChildren(...roots.map((r) =>
      el('option', { value: r.home ? '' : r.root, title: r.root }, `${r.name}${r.kind === 'folder' ? ' (folder)' : ''} · ${r.root}`)));
    $('switcher').hidden = roots.length < 2;
    if (ROOT && !listed) showAddress((ROOT = ''));
    $('roots').value = ROOT;
  } catch {
    $('switcher').hidden = true;
  }
}

/** Shows another root: everything is asked for again, its index run followed, and the query typed searched there too. */
function switchTo(root) {
  ROOT = root;
  generation++;
  stopFollowing();
  showAddress(root);
  $('roots').value = root;
  lastState = null;
  indexedAt = null;
  // A source's name is one root's: the filter starts again from "any".
  $('source').replaceChildren(el('option', { value: '' }, 'any'));
  $('results').replaceChildren();
  $('search-info').textContent = '';
  loadState();
  loadSources();
  loadDoctor();
  followTasks();
  const query = $('query').value.trim();
  if (query) search(query);
}

/** Keeps the root shown in the address bar, so a reload (or a bookmark) opens the panel on it. */
function showAddress(root) {
  const address = new URL(location.href);
  if (root) address.searchParams.set('root', root);
  else address.searchParams.delete('root');
  history.replaceState(null, '', address);
}
