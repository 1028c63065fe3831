// The live table: a seat's page (/seat/<token>/), the members' page (/sessions/<id>/live/)
// and an open session's scoreboard. The server pushes only "something changed" over the
// WebSocket; the state itself is always fetched over HTTP, so when the socket is not open
// (refused, dropped, not supported) polling every 2 s shows the same thing. A seat's entry
// is kept on the phone (localStorage) and as a draft on the server, so a phone that drops
// its connection resumes where it was.
(function () {
  "use strict";
  var t = window.scorekeeperText;
  var node = document.getElementById("live-config");
  if (!node || !window.fetch) return;
  var config = JSON.parse(node.textContent);
  var POLL_MS = 2000;
  var state = null;
  var socket = null;
  var pollTimer = null;
  var retry = 1000;

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }
  // What the server said when it refused: the API's {"error"}, or a 409's "detail".
  function reason(body) { return (body && (body.detail || body.error)) || t("live_refused"); }
  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  // Every call to the live API: the seat token for a seat's page, the session cookie and
  // the CSRF token for a member's.
  function api(method, path, body) {
    var headers = { Accept: "application/json", "X-CSRFToken": csrf() };
    if (config.token) headers["X-Seat-Token"] = config.token;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return fetch(config.api + (path || ""), {
      method: method,
      headers: headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { ok: response.ok, status: response.status, body: data };
      });
    });
  }

  // ---- The connection: a socket when it can, polling when it cannot. ----
  function connection(text) { var c = $("live-connection"); if (c) c.textContent = text; }

  function startPolling() {
    if (pollTimer) return;
    pollTimer = setInterval(refresh, POLL_MS);
  }
  function stopPolling() { clearInterval(pollTimer); pollTimer = null; }

  function connect() {
    if (!window.WebSocket) { startPolling(); return; }
    // <body data-live-socket>: where the sockets are served when not by this page's own
    // server (LIVE_SOCKET_URL, e.g. Daphne beside gunicorn); empty for this origin.
    var origin = document.body.getAttribute("data-live-socket");
    if (!origin) origin = (location.protocol === "https:" ? "wss://" : "ws://") + location.host;
    var url = origin + config.ws + (config.token ? "?seat=" + encodeURIComponent(config.token) : "");
    try { socket = new WebSocket(url); } catch (e) { startPolling(); return; }
    socket.onopen = function () {
      retry = 1000;
      stopPolling();
      connection(t("live_connected"));
      refresh(); // whatever changed while it was closed
    };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "changed") onChanged(message.what, message.state);
    };
    socket.onclose = function (event) {
      socket = null;
      if (event.code === 4403 || event.code === 4404) {
        refresh(); // this page may no longer follow the session: the API says why
        return;
      }
      connection(t("live_polling"));
      startPolling();
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }

  // ---- The seat's entry (a seat's page only). ----
  var form = $("deal-form");
  var seatPage = !!config.token && !!form;
  var ROWS = ["front", "middle", "back"];
  var saveTimer = null;
  var unsent = false; // the draft on the phone is newer than the server's

  function field(name) { return $("p0-" + name); }
  function storageKey(liveId) { return "scorekeeper.live." + config.token + "." + liveId; }

  // The entry as the deal format's player object (without "name"); a draft may be partial.
  function readEntry() {
    var surrender = field("surrender");
    var fouled = field("fouled");
    var natural = field("natural");
    var cards13 = field("cards13").value.trim();
    if (surrender && surrender.checked) return { surrender: true };
    if (fouled && fouled.checked) return { fouled: true };
    if (natural && natural.value) return { cards: cards13, natural: natural.value };
    var entry = {};
    ROWS.forEach(function (row) { entry[row] = field(row).value.trim(); });
    if (!ROWS.some(function (row) { return entry[row]; }) && cards13) return { cards: cards13 };
    return entry;
  }

  function writeEntry(entry) {
    entry = entry || {};
    ROWS.forEach(function (row) { field(row).value = entry[row] || ""; });
    field("cards13").value = entry.cards || "";
    if (field("surrender")) field("surrender").checked = !!entry.surrender;
    field("fouled").checked = !!entry.fouled;
    if (field("natural")) field("natural").value = entry.natural || "";
    field("front").dispatchEvent(new Event("input", { bubbles: true })); // the picker follows
  }

  function same(a, b) { return JSON.stringify(a || {}) === JSON.stringify(b || {}); }

  function keep() {
    if (!state || !state.live) return;
    try { localStorage.setItem(storageKey(state.live.id), JSON.stringify(readEntry())); } catch (e) { /* full */ }
  }
  function kept(liveId) {
    try { return JSON.parse(localStorage.getItem(storageKey(liveId)) || "null"); } catch (e) { return null; }
  }

  function sendDraft() {
    var you = state && state.live && state.live.you;
    if (!you || state.live.status !== "open" || you.submitted || you.taken_over) return;
    var entry = readEntry();
    api("PUT", "seats/" + config.seat + "/", { entry: entry }).then(function (answer) {
      if (answer.ok) { unsent = !same(entry, readEntry()); show(answer.body); }
      else if (answer.status === 409) { unsent = false; showError(reason(answer.body)); refresh(); }
    }).catch(function () { unsent = true; });
  }

  function changed() {
    keep();
    unsent = true;
    clearTimeout(saveTimer);
    saveTimer = setTimeout(sendDraft, 500);
  }

  function showError(text) {
    var box = $("live-error");
    if (!box) return;
    box.textContent = text || "";
    box.hidden = !text;
  }

  // The entry the page shows when a deal in progress first arrives: the phone's own copy
  // (it is never older than what it sent), else the server's draft.
  var shownFor = null;
  function resume(live, you) {
    if (shownFor === live.id) return;
    shownFor = live.id;
    var local = kept(live.id);
    var server = you && you.entry;
    writeEntry(local || server);
    if (local && !same(local, server) && !you.submitted) { unsent = true; sendDraft(); }
  }

  if (seatPage) {
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearTimeout(saveTimer);
      showError("");
      var entry = readEntry();
      keep();
      api("POST", "seats/" + config.seat + "/submit/", { entry: entry }).then(function (answer) {
        if (answer.ok) { unsent = false; show(answer.body); return; }
        showError(reason(answer.body));
        refresh();
      }).catch(function () { showError(t("live_offline")); });
    });
    $("live-withdraw").addEventListener("click", function () {
      api("POST", "seats/" + config.seat + "/withdraw/").then(function (answer) {
        if (answer.ok) show(answer.body);
        else showError(reason(answer.body));
      });
    });
    $("live-arrange").addEventListener("click", function () {
      var box = $("p0-cards13-fb");
      fetch(config.arrange, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
        body: JSON.stringify({ cards: field("cards13").value, rules: config.rules, mode: "expected" }),
      }).then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) { box.textContent = body.error || body.detail || t("cannot_arrange"); return; }
          ROWS.forEach(function (row) { field(row).value = body[row]; });
          box.textContent = t("check_rows", { how: t("arranged") });
          field("front").dispatchEvent(new Event("input", { bubbles: true }));
        });
      }).catch(function () { box.textContent = t("cannot_arrange"); });
    });
    window.addEventListener("online", function () { if (unsent) sendDraft(); refresh(); });
  }

  // ---- Showing the state. ----
  function seatLine(seat) {
    var li = el("li", "live-seat " + seat.state + (seat.conflict ? " conflict" : ""));
    li.dataset.seat = seat.seat;
    li.appendChild(el("strong", "", seat.player));
    var words = t("live_states." + seat.state);
    if (seat.by === "host") words += " · " + t("live_by_host");
    li.appendChild(el("span", "muted", " " + words));
    if (seat.conflict) li.appendChild(el("span", "error", " " + t("live_conflict")));
    return li;
  }

  function signed(value) {
    var text = String(value);
    return text.charAt(0) === "-" || /^0(\.0*)?$/.test(text) ? text : "+" + text;
  }

  // The recorded deal's units and the totals so far, a column per player.
  function showResult(live) {
    var box = $("live-result");
    if (!box) return;
    var deal = live && live.deal;
    box.hidden = !deal;
    if (!deal) return;
    $("live-result-h").textContent = t("live_recorded", { number: deal.number });
    var names = $("live-result-names");
    var rows = $("live-result-rows");
    names.replaceChildren(el("td"));
    rows.replaceChildren();
    var players = Object.keys(deal.units);
    players.forEach(function (name) {
      var th = el("th", "num", name);
      th.scope = "col";
      names.appendChild(th);
    });
    [["live_this_deal", deal.units], ["live_totals", deal.totals || {}]].forEach(function (line) {
      var tr = el("tr");
      var th = el("th", "", t(line[0]));
      th.scope = "row";
      tr.appendChild(th);
      players.forEach(function (name) {
        var value = line[1][name];
        tr.appendChild(el("td", "num", value === undefined ? "" : signed(value)));
      });
      rows.appendChild(tr);
    });
    var link = $("live-result-link");
    if (link && deal.url) link.href = deal.url;
  }

  function showSeatPage(live) {
    var you = live && live.you;
    var open = !!live && live.status === "open";
    $("live-none").hidden = open;
    $("live-entry").hidden = !open || !you || you.submitted || you.taken_over;
    $("live-done").hidden = !open || !you || !you.submitted;
    if (open && you && you.submitted) $("live-done-text").textContent = t("live_submitted");
    // A submitted hand can be taken back until the last seat's submit records the deal.
    $("live-withdraw").hidden = !open || !you || !you.submitted;
    var conflicts = $("live-conflicts");
    var list = (you && you.conflicts) || [];
    conflicts.replaceChildren.apply(conflicts, list.map(function (c) {
      return el("li", "", t("live_also_in", { card: c.card, player: c.player }));
    }));
    conflicts.hidden = !list.length;
    if (open) resume(live, you);
    if (open && you && you.taken_over) showError(t("live_taken_over"));
  }

  function showHostPage(live) {
    var open = !!live && live.status === "open";
    $("live-open").hidden = open;
    $("live-cancel").hidden = !open;
  }

  function show(next) {
    state = next;
    var live = next.live;
    var message = $("live-message");
    // (A seat's page says "no deal in progress" beside its button to start one.)
    var none = !seatPage && !(live && live.status === "open");
    if (message) message.textContent = live && live.message ? live.message : (none ? t("live_none") : "");
    var seats = $("live-seats");
    if (seats) {
      var rows = live && live.status === "open" ? live.seats : [];
      seats.replaceChildren.apply(seats, rows.map(seatLine));
    }
    showResult(live);
    if (seatPage) showSeatPage(live);
    if (config.host) showHostPage(live);
    // Other scripts of the page (seat_check.js) follow the state shown.
    document.dispatchEvent(new CustomEvent("scorekeeper:live", { detail: next }));
  }

  // ---- The scoreboard: the page's main content fetched again and swapped in. ----
  var seen = null;
  function swapScoreboard() {
    return fetch(location.href, { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var fresh = doc.getElementById("main");
      var main = $("main");
      if (!fresh || !main) return;
      var x = window.scrollX;
      var y = window.scrollY;
      main.replaceChildren.apply(main, Array.prototype.slice.call(fresh.childNodes));
      window.scrollTo(x, y);
      document.dispatchEvent(new CustomEvent("scorekeeper:swapped"));
    });
  }

  // A seat link that no longer works (revoked, its session closed): say why, stop asking.
  var refused = false;
  function refuse(detail) {
    refused = true;
    stopPolling();
    if (socket) socket.close();
    connection("");
    ["live-entry", "live-none", "live-done", "live-result"].forEach(function (id) {
      if ($(id)) $(id).hidden = true;
    });
    var message = $("live-message");
    if (message) { message.textContent = detail; message.classList.add("error"); }
  }

  function refresh() {
    if (refused) return Promise.resolve();
    return api("GET").then(function (answer) {
      if (!answer.ok) {
        if (seatPage && (answer.status === 403 || answer.status === 404)) refuse(reason(answer.body));
        return;
      }
      if (config.scoreboard) { scoreboardSaw(answer.body.session); return; }
      show(answer.body);
      if (seatPage && unsent) sendDraft();
    }).catch(function () { connection(t("live_offline")); });
  }

  function scoreboardSaw(session) {
    var mark = [session.deals, session.last_deal, session.status].join("/");
    if (seen !== null && mark !== seen) swapScoreboard();
    seen = mark;
  }

  // The state a change of the deal in progress carries is everyone's (no seat's cards):
  // the seat's own part is added from what the page knows, or fetched when it is not
  // enough (its conflicting cards, its entry in a deal it has not seen yet). Null: fetch.
  function withYou(pushed) {
    var live = pushed.live;
    if (!seatPage || !live) return pushed;
    var mine = live.seats.filter(function (s) { return s.seat === config.seat; })[0];
    if (!mine || mine.conflict) return null;
    var before = state && state.live && state.live.id === live.id ? state.live.you : null;
    if (!before && mine.state !== "waiting") return null;
    var you = {
      seat: mine.seat,
      player: mine.player,
      entry: before ? before.entry : null,
      submitted: mine.state === "submitted",
      taken_over: mine.taken_over,
      conflicts: [],
    };
    return { session: pushed.session, live: Object.assign({}, live, { you: you }) };
  }

  // An older state than the one shown (two writes announced out of order) is dropped.
  function older(pushed) {
    var now = state && state.live;
    var next = pushed.live;
    return !!(now && next && now.id === next.id && next.version < now.version);
  }

  var later = null; // a fetch put off, in case a change with its state follows
  function onChanged(what, pushed) {
    if (config.scoreboard) {
      // The deal in progress is not on the scoreboard; a deal recorded, edited or voided,
      // or the session closed, comes as "deals".
      if (what === "deals") { swapScoreboard(); refresh(); }
      return;
    }
    if (pushed) {
      clearTimeout(later);
      later = null;
      if (older(pushed)) return;
      var known = withYou(pushed);
      if (known) show(known);
      else refresh();
      return;
    }
    // A recorded deal is announced as "deals" and then as "live" with the state: wait a
    // moment for the second rather than fetch twice.
    clearTimeout(later);
    later = setTimeout(refresh, 400);
  }

  // ---- The members' controls. ----
  if (config.host) {
    $("live-open").addEventListener("click", function () {
      api("POST").then(function (answer) { if (answer.ok) show(answer.body); });
    });
    $("live-cancel").addEventListener("click", function () {
      if (!window.confirm(t("live_cancel_confirm"))) return;
      api("POST", "cancel/").then(function (answer) { if (answer.ok) show(answer.body); });
    });
    // An owner revokes a seat link: the API answers its replacement, which the page shows.
    document.querySelectorAll("button.revoke-seat").forEach(function (button) {
      button.addEventListener("click", function () {
        if (!window.confirm(t("live_revoke_confirm"))) return;
        var url = config.api.replace(/live\/$/, "seat-links/" + button.dataset.link + "/revoke/");
        fetch(url, {
          method: "POST",
          credentials: "same-origin",
          headers: { Accept: "application/json", "X-CSRFToken": csrf() },
        }).then(function (response) { if (response.ok) location.reload(); });
      });
    });
    document.querySelectorAll("form.host-form").forEach(function (host) {
      var error = host.querySelector(".host-error");
      function answered(answer) {
        error.hidden = answer.ok;
        error.textContent = answer.ok ? "" : reason(answer.body);
        if (answer.ok) show(answer.body);
      }
      host.addEventListener("submit", function (event) {
        event.preventDefault();
        var entry = {};
        ROWS.forEach(function (row) { entry[row] = host.elements[row].value.trim(); });
        api("POST", "seats/" + host.dataset.seat + "/submit/", { entry: entry }).then(answered);
      });
      host.querySelector("button.take-over").addEventListener("click", function () {
        api("POST", "seats/" + host.dataset.seat + "/take-over/").then(answered);
      });
    });
  }
  if (seatPage) {
    $("live-open").addEventListener("click", function () {
      api("POST").then(function (answer) { if (answer.ok) show(answer.body); });
    });
  }

  refresh();
  connect();
})();
