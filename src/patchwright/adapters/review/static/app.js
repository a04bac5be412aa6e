// The review page: lists batches and proposals, polls for new ones, shows diffs,
// undoes, approves and rejects. Plain JavaScript, no build step.
"use strict";

const TOKEN = document.querySelector('meta[name="pw-token"]').content;
const POLL_MS = 1500;
const state = { selected: null, kind: null, batchesKey: "", pendingKey: "" };
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
  const file = $("#filter-file").value.trim();
  const session = $("#filter-session").value;
  if (file) params.set("file", file);
  if (session) params.set("session", session);
  for (const name of ["since", "until"]) {
    const value = $("#filter-" + name).value;
    if (value) params.set(name, new Date(value).toISOString());
  }
  return params.toString();
}

function lines(item) {
  return `<span class="added">+${item.added}</span> <span class="removed">-${item.removed}</span>`;
}

function batchRow(b) {
  const tags = [];
  if (b.reverts) tags.push(`<span class="tag">undoes ${esc(b.reverts)}</span>`);
  if (b.reverted_by) tags.push(`<span class="tag">undone by ${esc(b.reverted_by)}</span>`);
  const changes = b.changes.length
    ? `<ul class="changes">${b.changes.slice(0, 5).map((c) => `<li>${esc(c)}</li>`).join("")}</ul>`
    : "";
  const undo = b.reverts || b.reverted_by ? "" : `<button class="undo" type="button">Undo</button>`;
  const cls = [b.reverted_by ? "reverted" : "", state.selected === b.id ? "selected" : ""];
  return `<tr data-id="${esc(b.id)}" class="${cls.join(" ").trim()}">
    <td title="${esc(b.created_at)}">${esc(when(b.created_at))}<br><span class="id">${esc(b.id)}</span></td>
    <td>${esc(b.session || "-")}</td><td>${esc(b.tool || "-")}</td>
    <td class="paths">${b.paths.map(esc).join("<br>")}</td><td>${lines(b)}</td>
    <td>${esc(b.label)} ${tags.join(" ")}${changes}</td><td>${undo}</td></tr>`;
}

async function refreshBatches() {
  const data = await api("/api/batches?" + query());
  const key = JSON.stringify(data);
  if (key === state.batchesKey) return;
  state.batchesKey = key;
  $("#batches tbody").innerHTML = data.batches.map(batchRow).join("");
  $("#empty").hidden = data.batches.length > 0;
  $("#batch-count").textContent = `${data.batches.length} of ${data.total}`;
  const select = $("#filter-session");
  const chosen = select.value;
  select.innerHTML = '<option value="">all</option>' +
    data.sessions.map((s) => `<option>${esc(s)}</option>`).join("");
  select.value = chosen;
}

function proposalCard(p) {
  return `<div class="proposal" data-id="${esc(p.id)}">
    <span class="id">${esc(p.id)}</span><span>${esc(when(p.created_at))}</span>
    <span>${esc(p.session || "-")}</span><span>${esc(p.tool || "-")}</span>
    <span class="paths">${p.paths.map(esc).join(", ")}</span><span>${lines(p)}</span>
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
}

async function showDiff(kind, id) {
  state.selected = id;
  state.kind = kind;
  const view = $("#view").value;
  const data = await api(`/api/${kind}/${encodeURIComponent(id)}?view=${view}`);
  $("#diff-title").textContent = `${id}${data.label ? " — " + data.label : ""}`;
  $("#diff").innerHTML = data.html;
  $("#diff-section").hidden = false;
  document.querySelectorAll("#batches tr").forEach((tr) => {
    tr.classList.toggle("selected", tr.dataset.id === id);
  });
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
  const row = event.target.closest("tr[data-id]");
  if (!row) return;
  const id = row.dataset.id;
  if (event.target.classList.contains("undo")) {
    event.target.disabled = true;
    const result = await act(`Undoing ${id}`, `/api/batches/${encodeURIComponent(id)}/undo`);
    if (result) status(`Undid ${id} as ${result.batch_id}.`);
    return;
  }
  await showDiff("batches", id).catch((err) => status(err.message, true));
});

$("#pending").addEventListener("click", async (event) => {
  const card = event.target.closest(".proposal");
  if (!card) return;
  const id = card.dataset.id;
  const base = `/api/proposals/${encodeURIComponent(id)}`;
  if (event.target.classList.contains("show")) {
    await showDiff("proposals", id).catch((err) => status(err.message, true));
  } else if (event.target.classList.contains("approve")) {
    event.target.disabled = true;
    const result = await act(`Approving ${id}`, base + "/approve");
    if (result) status(`Applied ${id} as ${result.batch_id}.`);
  } else if (event.target.classList.contains("reject")) {
    const reason = card.querySelector(".reason").value.trim();
    if (!reason) {
      status("Give a reason for rejecting: the agent reads it.", true);
      card.querySelector(".reason").focus();
      return;
    }
    const result = await act(`Rejecting ${id}`, base + "/reject", { reason });
    if (result) status(`Rejected ${id}.`);
  }
});

$("#filters").addEventListener("input", () => { state.batchesKey = ""; refresh(); });
$("#filters").addEventListener("submit", (event) => event.preventDefault());
$("#view").addEventListener("change", () => {
  if (state.selected) showDiff(state.kind, state.selected).catch((err) => status(err.message, true));
});

refresh();
setInterval(refresh, POLL_MS);
