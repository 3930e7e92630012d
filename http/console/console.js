// The operator console: polls GET /admin/actors and GET /admin/overview with
// the admin token as a bearer header and renders them. The token lives in
// sessionStorage (this tab only, gone when it closes), never in a URL, a
// cookie or the page itself. Every value is written with textContent, so no
// server string is ever parsed as markup.
"use strict";

const TOKEN_KEY = "svc.admin_token";
const REFRESH_MS = 2000;
const ACTOR_LIMIT = 500; // /admin/actors rows per refresh

const $ = (id) => document.getElementById(id);
const state = { actors: [], sortKey: "kind", sortDir: 1, timer: null };

function token() { return sessionStorage.getItem(TOKEN_KEY); }

function showBanner(text) {
  $("banner").textContent = text;
  $("banner").hidden = !text;
}

function showLogin(message) {
  clearTimeout(state.timer);
  state.timer = null;
  sessionStorage.removeItem(TOKEN_KEY);
  for (const id of ["actors", "teams", "endpoints", "errors"]) $(id).tBodies[0].replaceChildren();
  state.actors = [];
  $("data").hidden = true;
  $("forget").hidden = true;
  $("login").hidden = false;
  $("login-message").textContent = message || "";
  $("updated").textContent = "not connected";
  showBanner("");
}

async function getJson(path) {
  const res = await fetch(path, {
    headers: { Authorization: "Bearer " + token() },
    cache: "no-store",
    credentials: "omit",
  });
  if (res.status === 401) throw { refused: true };
  if (!res.ok) {
    let code = "";
    try { code = (await res.json()).error.code; } catch (e) { /* not the error envelope */ }
    throw new Error(path + " answered " + res.status + (code ? " " + code : ""));
  }
  return res.json();
}

function cell(row, text, cls) {
  const td = row.insertCell();
  td.textContent = text === undefined || text === null ? "" : String(text);
  if (cls) td.className = cls;
  return td;
}

function fillRows(table, rows, render, emptyText, columns) {
  const body = table.tBodies[0];
  body.replaceChildren();
  if (rows.length === 0) {
    const tr = body.insertRow();
    tr.className = "empty";
    const td = cell(tr, emptyText);
    td.colSpan = columns;
    return;
  }
  for (const r of rows) render(body.insertRow(), r);
}

function formatAge(ms) {
  const s = Math.floor(ms / 1000);
  if (s < 60) return s + "s";
  if (s < 3600) return Math.floor(s / 60) + "m " + (s % 60) + "s";
  return Math.floor(s / 3600) + "h " + Math.floor((s % 3600) / 60) + "m";
}

function renderActors() {
  const text = $("filter").value.trim().toLowerCase();
  const kind = $("kind").value;
  const key = state.sortKey;
  const shown = state.actors
    .filter((a) => !kind || a.kind === kind)
    .filter((a) => !text || [a.kind, a.id, a.team, a.state].some((v) => String(v).toLowerCase().includes(text)))
    .sort((a, b) => {
      const x = a[key], y = b[key];
      const order = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
      return state.sortDir * (order || String(a.id).localeCompare(String(b.id)));
    });
  fillRows($("actors"), shown, (tr, a) => {
    tr.dataset.kind = a.kind;
    tr.dataset.id = a.id;
    cell(tr, a.kind); cell(tr, a.id); cell(tr, a.team); cell(tr, a.state);
    cell(tr, a.mailbox, "num"); cell(tr, formatAge(a.age_ms), "num");
  }, "no actor matches", 6);
  $("actor-shown").textContent = shown.length + " of " + state.actors.length + " shown";
  for (const th of $("actors").tHead.rows[0].cells) {
    th.classList.toggle("sorted-asc", th.dataset.key === key && state.sortDir > 0);
    th.classList.toggle("sorted-desc", th.dataset.key === key && state.sortDir < 0);
  }
}

function renderKinds() {
  const select = $("kind");
  const kinds = [...new Set(state.actors.map((a) => a.kind))].sort();
  const known = [...select.options].slice(1).map((o) => o.value);
  if (kinds.join() === known.join()) return;
  const chosen = select.value;
  select.replaceChildren(new Option("all kinds", ""), ...kinds.map((k) => new Option(k, k)));
  select.value = kinds.includes(chosen) ? chosen : "";
}

function renderOverview(o) {
  $("queued").textContent = o.renders.queued;
  $("running").textContent = o.renders.running;
  $("workers").textContent = o.renders.workers;
  $("error-count").textContent = o.recent_5xx.length;
  fillRows($("teams"), o.teams.data, (tr, t) => {
    tr.dataset.id = t.id;
    if (t.disabled_at) tr.className = "disabled";
    cell(tr, t.id); cell(tr, t.disabled_at ? t.name + " (disabled " + t.disabled_at + ")" : t.name);
    cell(tr, t.available, "num"); cell(tr, t.held, "num");
    const td = cell(tr, "");
    for (const b of t.buckets) {
      const span = document.createElement("span");
      span.className = "bucket";
      const meter = document.createElement("meter");
      meter.max = b.capacity;
      meter.value = b.tokens;
      meter.low = b.capacity * 0.2;
      meter.optimum = b.capacity;
      span.append(b.bucket + " ", meter, " " + b.tokens + "/" + b.capacity);
      td.append(span);
    }
  }, "no team", 5);
  fillRows($("endpoints"), o.endpoints.data, (tr, e) => {
    tr.dataset.id = e.id;
    if (!e.is_active) tr.className = "disabled";
    else if (e.consecutive_failures > 0) tr.className = "failing";
    cell(tr, e.id); cell(tr, e.team_id); cell(tr, e.url); cell(tr, e.is_active ? "yes" : "disabled");
    cell(tr, e.consecutive_failures, "num"); cell(tr, e.last_failure_at || "-");
  }, "no webhook endpoint", 6);
  fillRows($("errors"), o.recent_5xx, (tr, e) => {
    cell(tr, e.at); cell(tr, e.request_id); cell(tr, e.method); cell(tr, e.route);
    cell(tr, e.status, "num"); cell(tr, e.code || "-");
  }, "none since start", 6);
}

async function refresh() {
  state.timer = null;
  try {
    const [actors, overview] = await Promise.all([getJson("/admin/actors?limit=" + ACTOR_LIMIT),
                                                 getJson("/admin/overview")]);
    if (!token()) return; // forgotten while the answers were on their way
    state.actors = actors.data;
    $("actor-count").textContent = actors.data.length + (actors.data.length === ACTOR_LIMIT ? "+" : "");
    renderKinds();
    renderActors();
    renderOverview(overview);
    $("login").hidden = true;
    $("data").hidden = false;
    $("forget").hidden = false;
    $("updated").textContent = "updated at " + new Date().toLocaleTimeString();
    showBanner("");
  } catch (err) {
    if (err && err.refused) return showLogin("The admin token was refused.");
    showBanner("Refresh failed at " + new Date().toLocaleTimeString() + ": " + (err.message || err)
               + ". Showing the last data; retrying.");
  }
  if (token()) state.timer = setTimeout(refresh, REFRESH_MS);
}

$("login").addEventListener("submit", (ev) => {
  ev.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
  $("token").value = "";
  $("login-message").textContent = "connecting...";
  refresh();
});
$("forget").addEventListener("click", () => showLogin("Token forgotten."));
$("filter").addEventListener("input", renderActors);
$("kind").addEventListener("change", renderActors);
for (const th of $("actors").tHead.rows[0].cells) {
  th.addEventListener("click", () => {
    state.sortDir = state.sortKey === th.dataset.key ? -state.sortDir : 1;
    state.sortKey = th.dataset.key;
    renderActors();
  });
}

if (token()) refresh();
else showLogin("");
