// The review page: lists batches and proposals, polls for new ones, opens a diff under
// the row clicked (or named by the address: #b-... or #p-...), undoes, approves and
// rejects after asking. Plain JavaScript, no build step.
"use strict";

const TOKEN = document.querySelector('meta[name="pw-token"]').content;
const POLL_MS = 1500;
// file lists longer than this are folded behind their count
const PATHS_SHOWN = 3;
const state = { open: null, batchesKey: "", pendingKey: "", shared: false, batches: {} };
const $ = (sel) => document.querySelector(sel);

function esc(text) {
  const div = document.createElement("div");
  div.textContent = text == null ? "" : String(text);
  return div.innerHTML;
}

function when(iso) {
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toLocaleString();
}

function status(text, isError) {
  const el = $("#status");
  el.textContent = text;
  el.className = isError ? "error" : "";
}

async function api(path, options) {
  const opts = Object.assign({ headers: {} }, options || {});
  opts.headers["X-Patchwright-Token"] = TOKEN;
  const response = await fetch(path, opts);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const err = body.error || {};
    throw new Error((err.message || response.statusText) + (err.hint ? " " + err.hint : ""));
  }
  return body;
}

function query() {
  const params = new URLSearchParams();
  for (const name of ["file", "session", "machine", "status"]) {
    const value = $("#filter-" + name).value.trim();
    if (value) params.set(name, value);
  }
  for (const name of ["since", "until"]) {
    const value = $("#filter-" + name).value;
    if (value) params.set(name, new Date(value).toISOString());
  }
  if ($("#fleet").checked) params.set("scope", "fleet");
  return params.toString();
}

function lines(item) {
  return `<span class="added">+${item.added}</span> <span class="removed">-${item.removed}</span>`;
}

function paths(list, separator) {
  const shown = list.map(esc).join(separator);
  if (list.length <= PATHS_SHOWN) return shown;
  return `<details class="files"><summary>${list.length} files</summary>${shown}</details>`;
}

function who(item) {
  const parts = [];
  if (item.client) parts.push(`<span class="client">${esc(item.client)}</span>`);
  if (item.session) parts.push(`<span class="session">${esc(item.session)}</span>`);
  return parts.length ? parts.join("<br>") : "-";
}

function place(item) {
  if (!state.shared || !item.machine) return "";
  return `<br><span class="place" title="${esc(item.workspace)}">${esc(item.machine)}:${esc(item.workspace)}</span>`;
}

// the first line of what the model was answered, under the batch's label
function said(b) {
  const first = (b.answer || "").split("\n")[0];
  return first ? `<div class="said" title="what the model was answered">${esc(first)}</div>` : "";
}

function batchRow(b) {
  const tags = [];
  if (b.reverts) tags.push(`<span class="tag">undoes ${esc(b.reverts)}</span>`);
  if (b.reverted_by) tags.push(`<span class="tag">undone by ${esc(b.reverted_by)}</span>`);
  const changes = b.changes.length
    ? `<ul class="changes">${b.changes.slice(0, 5).map((c) => `<li>${esc(c)}</li>`).join("")}</ul>`
    : "";
  const undo = b.reverts || b.reverted_by || !b.here
    ? "" : `<button class="undo" type="button">Undo</button>`;
  const cls = ["batch", b.reverted_by ? "reverted" : "", state.open === b.id ? "selected" : ""];
  return `<tr data-id="${esc(b.id)}" id="row-${esc(b.id)}" class="${cls.join(" ").trim()}">
    <td title="${esc(b.created_at)}">${esc(when(b.created_at))}<br>
      <a class="id" href="#${esc(b.id)}">${esc(b.id)}</a>${place(b)}</td>
    <td>${who(b)}</td><td>${esc(b.tool || "-")}</td>
    <td class="paths">${paths(b.paths, "<br>")}</td><td>${lines(b)}</td>
    <td>${esc(b.label)} ${tags.join(" ")}${said(b)}${changes}</td><td>${undo}</td></tr>`;
}

function fillSelect(select, values) {
  const chosen = select.value;
  select.innerHTML = '<option value="">all</option>' +
    values.map((s) => `<option>${esc(s)}</option>`).join("");
  select.value = values.includes(chosen) ? chosen : "";
}

async function refreshBatches() {
  const data = await api("/api/batches?" + query());
  const key = JSON.stringify(data);
  if (key === state.batchesKey) return;
  state.batchesKey = key;
  state.shared = data.shared;
  state.batches = Object.fromEntries(data.batches.map((b) => [b.id, b]));
  $("#fleet-label").hidden = !data.shared;
  $("#machine-label").hidden = !data.shared;
  $("#fleet-note").hidden = !(data.shared && $("#fleet").checked);
  $("#batches tbody").innerHTML = data.batches.map(batchRow).join("");
  $("#empty").hidden = data.batches.length > 0;
  $("#batch-count").textContent = `${data.batches.length} of ${data.total}`;
  fillSelect($("#filter-session"), data.sessions);
  fillSelect($("#filter-machine"), data.machines);
  reopen();
}

function proposalCard(p) {
  const where = p.here ? "" : `<span class="place">${esc(p.machine)}:${esc(p.workspace)}</span>`;
  return `<div class="proposal" data-id="${esc(p.id)}" id="card-${esc(p.id)}">
    <a class="id" href="#${esc(p.id)}">${esc(p.id)}</a><span>${esc(when(p.created_at))}</span>
    <span>${esc(p.session || "-")}</span><span>${esc(p.tool || "-")}</span>${where}
    <span class="paths">${paths(p.paths, ", ")}</span><span>${lines(p)}</span>
    <span>${esc(p.label)}</span>
    <button class="show" type="button">Diff</button>
    <button class="approve" type="button">Approve</button>
    <input class="reason" type="text" placeholder="reason for rejecting" aria-label="reason">
    <button class="reject" type="button">Reject</button></div>`;
}

async function refreshPending() {
  const data = await api("/api/proposals");
  const key = JSON.stringify(data);
  if (key === state.pendingKey) return;
  state.pendingKey = key;
  // keep reasons being typed across a refresh
  const typed = {};
  document.querySelectorAll(".proposal").forEach((el) => {
    typed[el.dataset.id] = el.querySelector(".reason").value;
  });
  $("#pending").innerHTML = data.proposals.map(proposalCard).join("");
  document.querySelectorAll(".proposal").forEach((el) => {
    el.querySelector(".reason").value = typed[el.dataset.id] || "";
  });
  $("#pending-section").hidden = data.proposals.length === 0;
  $("#pending-count").textContent = String(data.proposals.length);
  reopen();
}

// The open diff: its id, kind and HTML, shown under its row (or card); when the item is
// not in the list (filtered out, or older than the newest listed), in its own section.
function diffBox(data, kind) {
  const box = document.createElement("div");
  box.className = "diff-open";
  const caller = [data.client, data.session].filter(Boolean).join(" · ");
  const answer = data.answer
    ? `<details class="answer" open><summary>Answer to the model</summary><pre>${esc(data.answer)}</pre></details>`
    : "";
  box.innerHTML = `<h3 class="diff-title"><a href="#${esc(data.id)}">${esc(data.id)}</a>` +
    `${data.label ? " — " + esc(data.label) : ""}` +
    `${caller ? ` <span class="caller">${esc(caller)}</span>` : ""}</h3>${answer}${data.html}`;
  box.dataset.kind = kind;
  return box;
}

function placeDiff() {
  document.querySelectorAll(".diff-row, .proposal + .diff-open").forEach((el) => el.remove());
  document.querySelectorAll("#batches tr.batch").forEach((tr) => {
    tr.classList.toggle("selected", state.open !== null && tr.dataset.id === state.open.id);
  });
  $("#diff-section").hidden = true;
  if (state.open === null) return null;
  const box = diffBox(state.open.data, state.open.kind);
  const row = document.getElementById("row-" + state.open.id);
  const card = document.getElementById("card-" + state.open.id);
  if (row) {
    const tr = document.createElement("tr");
    tr.className = "diff-row";
    const td = document.createElement("td");
    td.colSpan = row.children.length;
    td.appendChild(box);
    tr.appendChild(td);
    row.after(tr);
  } else if (card) {
    card.after(box);
  } else {
    $("#diff").replaceChildren(box);
    $("#diff-section").hidden = false;
  }
  return box;
}

function reopen() {
  if (state.open !== null) placeDiff();
}

async function openItem(id, scroll) {
  const kind = id.startsWith("p-") ? "proposals" : "batches";
  const view = $("#view").value;
  const data = await api(`/api/${kind}/${encodeURIComponent(id)}?view=${view}`);
  state.open = { id, kind, data };
  const box = placeDiff();
  const anchor = document.getElementById("row-" + id) || document.getElementById("card-" + id);
  if (scroll && box) (anchor || box).scrollIntoView({ block: "start", behavior: "smooth" });
}

function closeItem() {
  state.open = null;
  placeDiff();
}

function fromAddress() {
  const id = decodeURIComponent(location.hash.slice(1));
  if (/^[bp]-[0-9a-f]+$/.test(id)) {
    openItem(id, true).catch((err) => status(err.message, true));
  } else if (!id) {
    closeItem();
  }
}

function toggle(id) {
  if (state.open !== null && state.open.id === id) {
    history.replaceState(null, "", location.pathname + location.search);
    closeItem();
  } else if (location.hash === "#" + id) {
    openItem(id, true).catch((err) => status(err.message, true));
  } else {
    location.hash = id; // opens it through hashchange, and makes a link to it
  }
}

async function act(label, path, body) {
  status(label + "…");
  try {
    const result = await api(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    await refresh();
    return result;
  } catch (err) {
    status(err.message, true);
    return null;
  }
}

async function refresh() {
  try {
    await Promise.all([refreshBatches(), refreshPending()]);
  } catch (err) {
    status("Cannot reach the server: " + err.message, true);
  }
}

$("#batches tbody").addEventListener("click", async (event) => {
  if (event.target.closest(".diff-row, a, summary")) return;
  const row = event.target.closest("tr.batch");
  if (!row) return;
  const id = row.dataset.id;
  if (event.target.classList.contains("undo")) {
    const paths = (state.batches[id] || { paths: [] }).paths;
    const files = paths.slice(0, 10).join("\n") + (paths.length > 10 ? `\n… ${paths.length - 10} more` : "");
    if (!confirm(`Undo ${id}? This writes its files back as they were before it:\n${files}`)) return;
    event.target.disabled = true;
    const result = await act(`Undoing ${id}`, `/api/batches/${encodeURIComponent(id)}/undo`);
    if (result) status(`Undid ${id} as ${result.batch_id}.`);
    else event.target.disabled = false;
    return;
  }
  toggle(id);
});

$("#pending").addEventListener("click", async (event) => {
  const card = event.target.closest(".proposal");
  if (!card) return;
  const id = card.dataset.id;
  const base = `/api/proposals/${encodeURIComponent(id)}`;
  if (event.target.classList.contains("show")) {
    toggle(id);
  } else if (event.target.classList.contains("approve")) {
    if (!confirm(`Approve ${id}? Its changes are written to the files.`)) return;
    event.target.disabled = true;
    const result = await act(`Approving ${id}`, base + "/approve");
    if (result) status(`Applied ${id} as ${result.batch_id}.`);
    else event.target.disabled = false;
  } else if (event.target.classList.contains("reject")) {
    const reason = card.querySelector(".reason").value.trim();
    if (!reason) {
      status("Give a reason for rejecting: the agent reads it.", true);
      card.querySelector(".reason").focus();
      return;
    }
    if (!confirm(`Reject ${id}? The agent is told: ${reason}`)) return;
    const result = await act(`Rejecting ${id}`, base + "/reject", { reason });
    if (result) status(`Rejected ${id}.`);
  }
});

$("#filters").addEventListener("input", () => { state.batchesKey = ""; refresh(); });
$("#filters").addEventListener("submit", (event) => event.preventDefault());
$("#view").addEventListener("change", () => {
  if (state.open !== null) openItem(state.open.id, false).catch((err) => status(err.message, true));
});
window.addEventListener("hashchange", fromAddress);

refresh().then(fromAddress);
setInterval(refresh, POLL_MS);
