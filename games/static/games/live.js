// The live table: a seat's page (/seat/<token>/), the members' page (/sessions/<id>/live/)
// and an open session's scoreboard. The server pushes only "something changed" over the
// WebSocket; the state itself is always fetched over HTTP, so when the socket is not open
// (refused, dropped, not supported) polling every 2 s shows the same thing. A seat's entry
// is kept on the phone (localStorage) and as a draft on the server, so a phone that drops
// its connection resumes where it was; a submit that cannot reach the server waits on the
// phone, with its Idempotency-Key, and goes as soon as the server answers again.
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
  function api(method, path, body, extra) {
    var headers = { Accept: "application/json", "X-CSRFToken": csrf() };
    if (config.token) {
      headers["X-Seat-Token"] = config.token;
      headers["X-Seat-Device"] = device();
    }
    if (body !== undefined) headers["Content-Type"] = "application/json";
    Object.assign(headers, extra || {});
    // A request the network swallows (a phone whose Wi-Fi went) fails after 15 s rather
    // than never.
    var abort = window.AbortController ? new AbortController() : null;
    var timer = abort ? setTimeout(function () { abort.abort(); }, 15000) : null;
    return fetch(config.api + (path || ""), {
      method: method,
      headers: headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: abort ? abort.signal : undefined,
    }).then(function (response) {
      clearTimeout(timer);
      return response.json().catch(function () { return {}; }).then(function (data) {
        var wait = parseInt(response.headers.get("Retry-After") || "", 10);
        return { ok: response.ok, status: response.status, body: data, retryAfter: wait > 0 ? wait : 0 };
      });
    }, function (error) { clearTimeout(timer); throw error; });
  }

  // This phone's own secret for a seat: the first phone to open a seat's link holds it,
  // and only it reads the seat's hand (another holder of the link sees what all see).
  function device() {
    if (device.memo) return device.memo;
    var key = "scorekeeper.device." + config.token;
    var known = null;
    try { known = localStorage.getItem(key); } catch (e) { /* private mode */ }
    if (known) { device.memo = known; return known; }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    known = Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    try { localStorage.setItem(key, known); } catch (e) { /* kept for this page only */ }
    device.memo = known;
    return known;
  }

  // ---- The connection: a socket when it can, polling when it cannot. ----
  function connection(text) { var c = $("live-connection"); if (c) c.textContent = text; }
  // Whether the last request failed to reach the server at all: then the page is offline,
  // and says so (what happens to the hand) until a request gets through, whatever the
  // socket's tries to come back say meanwhile. Only the socket down reads "unavailable".
  var offline = false;
  function reachable() {
    offline = false;
    connection(socket && socket.readyState === 1 ? t("live_connected") : t("live_polling"));
  }
  function unreachable() {
    offline = true;
    connection(t("live_offline"));
  }

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
    var url = origin + config.ws;
    if (config.token) url += "?seat=" + encodeURIComponent(config.token) + "&device=" + device();
    var opened;
    try { opened = new WebSocket(url); } catch (e) { startPolling(); return; }
    socket = opened;
    opened.onopen = function () {
      retry = 1000;
      answered = Date.now();
      stopPolling();
      reachable();
      refresh(); // whatever changed while it was closed
      sendPending();
    };
    opened.onmessage = function (event) {
      var message;
      answered = Date.now();
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "changed") onChanged(message.what, message.state);
      if (message.type === "nudge" && seatPage && message.seat === config.seat) nudged();
    };
    opened.onclose = function (event) {
      if (socket !== opened) return; // a socket already given up as dead
      lost(event.code === 4403 || event.code === 4404);
    };
  }

  // The socket is gone: poll meanwhile and open a new one, sooner while a hand waits to go.
  function lost(refusedHere) {
    var was = socket;
    socket = null;
    if (was) { was.onclose = null; try { was.close(); } catch (e) { /* already closed */ } }
    if (refusedHere) {
      refresh(); // this page may no longer follow the session: the API says why
      return;
    }
    if (!offline) connection(t("live_polling"));
    startPolling();
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, pending() ? 4000 : 30000);
  }

  // A seat's phone pings every 10 s, which tells the host's page it is here; a socket that
  // has not answered for 25 s is given up (a connection the network dropped without a
  // word never closes by itself).
  var answered = 0;
  setInterval(function () {
    if (!socket || socket.readyState !== 1) return;
    if (Date.now() - answered > 25000) { lost(false); return; }
    socket.send(JSON.stringify({ type: "ping" }));
  }, 10000);

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
  // A seat's page keeps the last state it was shown, so that opened again with no
  // network (from the home screen, the service worker giving the page) it shows the hand
  // and the submit waiting on the phone rather than nothing.
  var STATE_KEY = "scorekeeper.live.state." + config.token;
  function keepState(body) {
    if (!seatPage) return;
    try { localStorage.setItem(STATE_KEY, JSON.stringify(body)); } catch (e) { /* full */ }
  }
  function lastState() {
    if (!seatPage) return null;
    try { return JSON.parse(localStorage.getItem(STATE_KEY) || "null"); } catch (e) { return null; }
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

  // ---- A submit that waits on the phone until the server takes it. ----
  // Kept in localStorage with its Idempotency-Key, so a reload or a reopened tab sends the
  // same submit, and the server records it once however many copies arrive.
  function pendingKey() { return state && state.live ? storageKey(state.live.id) + ".submit" : null; }
  function pending() {
    var key = pendingKey();
    if (!key) return null;
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return pending.memo || null; }
  }
  function setPending(value) {
    var key = pendingKey();
    pending.memo = value;
    if (!key) return;
    try {
      if (value) localStorage.setItem(key, JSON.stringify(value));
      else localStorage.removeItem(key);
    } catch (e) { /* kept for this page only */ }
  }
  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
    return device() + "-" + Date.now() + "-" + Math.random().toString(16).slice(2);
  }

  var sending = false;
  var resendTimer = null;
  var resendWait = 2000;
  function queued(text) {
    var box = $("live-queued");
    if (!box) return;
    box.textContent = text || "";
    box.hidden = !text;
  }

  function sendPending() {
    var waiting = pending();
    if (!seatPage || !waiting || sending) return;
    sending = true;
    clearTimeout(resendTimer);
    resendTimer = null;
    api("POST", "seats/" + config.seat + "/submit/", { entry: waiting.entry }, { "Idempotency-Key": waiting.key })
      .then(function (answer) {
        sending = false;
        if (answer.status >= 500) { retryLater(answer.retryAfter); return; }
        setPending(null);
        resendWait = 2000;
        queued("");
        if (answer.ok) { unsent = false; show(answer.body); return; }
        // Taken in another way (already submitted: this phone's own earlier copy) or
        // refused for a reason the player must see; the entry is theirs to change.
        if (!(answer.body && answer.body.code === "already_submitted")) showError(reason(answer.body));
        refresh();
      }, function () { sending = false; retryLater(0); });
  }

  // The next try waits its turn: the page drawn meanwhile does not send it sooner (a
  // network that fails at once would otherwise be asked again and again without a pause).
  function retryLater(seconds) {
    clearTimeout(resendTimer);
    resendTimer = setTimeout(sendPending, seconds ? seconds * 1000 : resendWait);
    resendWait = Math.min(resendWait * 2, 15000);
    queued(t("live_submit_queued"));
    showSeatPage(state && state.live);
  }

  function nudged() {
    var box = $("live-nudge");
    if (!box) return;
    box.hidden = false;
    if (navigator.vibrate) navigator.vibrate([150, 80, 150]);
  }

  // For seat_check.js, which checks the same entry with the same credentials.
  window.scorekeeperLive = { api: api, readEntry: readEntry };

  if (seatPage) {
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (!state || !state.live || state.live.status !== "open") return;
      clearTimeout(saveTimer);
      showError("");
      keep();
      setPending({ entry: readEntry(), key: newKey() });
      queued(t("live_sending"));
      showSeatPage(state.live);
      sendPending();
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
    window.addEventListener("online", function () { if (unsent) sendDraft(); sendPending(); refresh(); });
  }

  // ---- Showing the state. ----
  // How far a seat is, as the table needs to know it: done, taken over, its phone never
  // opened, gone (for how long), or entering (cards so far).
  var shownAt = Date.now();
  function quietFor(seat) {
    return seat.quiet === null || seat.quiet === undefined ? null : seat.quiet + Math.round((Date.now() - shownAt) / 1000);
  }
  function phoneState(seat) {
    if (seat.phone === "none") return "none";
    var quiet = quietFor(seat);
    return seat.phone === "offline" || (quiet !== null && quiet > 30) ? "offline" : "online";
  }
  function progress(seat) {
    // A seat's page says only who is done; the host's page says how far each seat is.
    if (!config.host || seat.state === "submitted") return t("live_states." + seat.state);
    if (seat.taken_over) return t("live_progress.taken_over");
    var phone = phoneState(seat);
    if (phone === "offline") return t("live_progress.offline", { seconds: quietFor(seat) });
    if (phone === "none" && seat.by !== "host") return t("live_progress.not_opened");
    if (!seat.cards) return t("live_progress.opened");
    var size = config.hand_size;
    return size ? t("live_progress.entering_of", { count: seat.cards, size: size })
      : t("live_progress.entering", { count: seat.cards });
  }

  function seatLine(seat) {
    var phone = phoneState(seat);
    var li = el("li", "live-seat " + seat.state + (seat.conflict ? " conflict" : "") + " phone-" + phone);
    li.dataset.seat = seat.seat;
    li.appendChild(el("strong", "", seat.player));
    var words = progress(seat);
    if (seat.by === "host" && !seat.taken_over) words += " · " + t("live_by_host");
    li.appendChild(el("span", "muted progress", " " + words));
    if (seat.conflict) li.appendChild(el("span", "error", " " + t("live_conflict")));
    if (config.host && state && state.live && state.live.status === "open" && seat.state !== "submitted") {
      var tools = el("span", "seat-tools");
      if (!seat.taken_over) tools.appendChild(hostButton(t("live_nudge"), "nudge", seat));
      if (phone !== "none" && !seat.taken_over) tools.appendChild(hostButton(t("live_free"), "release", seat));
      li.appendChild(tools);
    }
    return li;
  }

  function hostButton(text, action, seat) {
    var button = el("button", "secondary small", text);
    button.type = "button";
    button.dataset.action = action;
    button.addEventListener("click", function () {
      button.disabled = true;
      api("POST", "seats/" + seat.seat + "/" + action + "/").then(function (answer) {
        button.disabled = false;
        if (answer.ok) {
          show(answer.body);
          if (action === "nudge") button.textContent = t("live_nudged");
        }
      }, function () { button.disabled = false; });
    });
    return button;
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
    var waiting = open && !!you && !you.submitted && !!pending();
    var done = open && !!you && (you.submitted || waiting);
    $("live-none").hidden = open || !!state.elsewhere;
    $("live-entry").hidden = !open || !you || done || you.taken_over;
    $("live-done").hidden = !done;
    if (done) $("live-done-text").textContent = waiting ? "" : t("live_submitted");
    if (!waiting) queued("");
    // A submitted hand can be taken back until the last seat's submit records the deal.
    $("live-withdraw").hidden = !open || !you || !you.submitted;
    if (!open || done) $("live-nudge").hidden = true;
    var conflicts = $("live-conflicts");
    var list = (you && you.conflicts) || [];
    conflicts.replaceChildren.apply(conflicts, list.map(function (c) {
      return el("li", "", t("live_also_in", { card: c.card, player: c.player }));
    }));
    conflicts.hidden = !list.length;
    if (open && you) resume(live, you);
    if (open && you && you.taken_over) showError(t("live_taken_over"));
    if (waiting && !sending && !resendTimer) sendPending();
  }

  function showHostPage(live) {
    var open = !!live && live.status === "open";
    $("live-open").hidden = open;
    $("live-cancel").hidden = !open;
  }

  function show(next) {
    state = next;
    keepState(next);
    shownAt = Date.now();
    var live = next.live;
    var message = $("live-message");
    // (A seat's page says "no deal in progress" beside its button to start one.)
    var none = !seatPage && !(live && live.status === "open");
    var own = live && live.you && live.you.refusal;
    var said = own || (live && live.message ? live.message : (none ? t("live_none") : ""));
    if (message) message.textContent = next.elsewhere || said;
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

  // A fetch the server turned away (busy, or its database away: 5xx) is asked again after
  // its Retry-After, once, whatever else asks meanwhile: the state is not left stale.
  var refreshLater = null;
  function refresh() {
    if (refused) return Promise.resolve();
    return api("GET").then(function (answer) {
      if (!answer.ok) {
        if (seatPage && (answer.status === 403 || answer.status === 404)) refuse(reason(answer.body));
        if (answer.status >= 500 && !refreshLater) {
          refreshLater = setTimeout(function () { refreshLater = null; refresh(); }, (answer.retryAfter || 2) * 1000);
        }
        return;
      }
      if (config.scoreboard) { scoreboardSaw(answer.body.session); return; }
      show(answer.body);
      // Whatever the connection said while it was failing no longer holds.
      reachable();
      if (seatPage && unsent) sendDraft();
      if (seatPage) sendPending();
    }).catch(function () {
      var last = state ? null : lastState();
      if (last) show(last);
      unreachable();
    });
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
    // A new refusal of the last submit may name this seat's hand: a fetch says it whole.
    var refused = !!live.message_code && mine.state !== "submitted";
    if (refused && (!before || state.live.message !== live.message)) return null;
    var you = {
      seat: mine.seat,
      player: mine.player,
      entry: before ? before.entry : null,
      submitted: mine.state === "submitted",
      taken_over: mine.taken_over,
      conflicts: [],
      refusal: refused ? before.refusal : null,
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
        api("POST", "seats/" + host.dataset.seat + "/take-over/").then(function (answer) {
          answered(answer);
          // The seat's hand so far, which only the host who took it over reads.
          var taken = answer.ok && answer.body.taken && answer.body.taken.entry;
          if (!taken) return;
          ROWS.forEach(function (row) {
            if (typeof taken[row] === "string" && !host.elements[row].value) host.elements[row].value = taken[row];
          });
          host.closest("details").open = true;
        });
      });
    });
  }
  if (config.host) {
    // The seconds a phone has been gone count up between states; a fresh state every
    // 10 s tells a phone that went silent without closing its socket.
    setInterval(function () {
      if (!state || !state.live || state.live.status !== "open") return;
      state.live.seats.forEach(function (seat) {
        var li = document.querySelector('#live-seats li[data-seat="' + seat.seat + '"]');
        var span = li && li.querySelector(".progress");
        if (!span) return;
        var words = progress(seat);
        if (seat.by === "host" && !seat.taken_over) words += " · " + t("live_by_host");
        span.textContent = " " + words;
        li.classList.toggle("phone-offline", phoneState(seat) === "offline");
      });
    }, 1000);
    setInterval(function () {
      if (state && state.live && state.live.status === "open") refresh();
    }, 10000);
  }
  if (seatPage) {
    $("live-open").addEventListener("click", function () {
      api("POST").then(function (answer) { if (answer.ok) show(answer.body); });
    });
  }

  refresh();
  connect();
})();
