// A typed deal is never lost. On the deal form, everything typed is kept in this browser
// (one draft per session) on every change and put back, with a notice, when the page is
// opened again; leaving the page with a draft asks first. Offline, a banner says so and
// Save queues the deal, with its idempotency key, to be sent when the connection returns
// (a deal sent twice is stored once). The scoreboard lists the deals still queued.
(function () {
  "use strict";
  var t = window.scorekeeperText;
  var board = document.getElementById("queued");
  if (!board) return;
  var form = document.getElementById("deal-form");
  var banner = document.getElementById("offline-banner");
  var list = document.getElementById("queued-list");
  var session = board.dataset.session;
  var saved = (board.dataset.savedKeys || "").split(" ").filter(Boolean);
  var correcting = form && form.dataset.deal;
  var DRAFT = "scorekeeper:draft:" + session + (correcting ? ":deal-" + correcting : "");
  var QUEUE = "scorekeeper:queue:" + session;
  var leaving = false; // the form is being sent: no question on the way out

  function read(key, fallback) {
    try { return JSON.parse(window.localStorage.getItem(key)) || fallback; } catch (e) { return fallback; }
  }
  function write(key, value) {
    try {
      if (value === null) window.localStorage.removeItem(key);
      else window.localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* storage full or refused: the page still works as a plain form */ }
  }
  function clock(at) {
    return new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }
  function newKey() {
    if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID().replace(/-/g, "");
    var hex = "";
    while (hex.length < 32) hex += Math.floor(Math.random() * 16).toString(16);
    return hex;
  }

  // The form's fields as name -> value (checkboxes as "on" or absent), as a POST sends them.
  function fields() {
    var values = {};
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") values[name] = value;
    });
    return values;
  }
  function typed(values) {
    return Object.keys(values).some(function (name) {
      return /^p\d+-/.test(name) && values[name].trim() !== "";
    });
  }
  function fill(values) {
    // A copy: the picker adds its card buttons to the form as rows fill.
    Array.prototype.slice.call(form.elements).forEach(function (field) {
      if (!field.name || field.name === "csrfmiddlewaretoken" || field.type === "submit") return;
      if (field.type === "checkbox") field.checked = field.name in values;
      else if (field.name in values) field.value = values[field.name];
      else if (/^p\d+-/.test(field.name)) field.value = "";
      if (field.matches("input[data-row]")) field.dispatchEvent(new Event("input", { bubbles: true }));
    });
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function showBanner() {
    banner.hidden = navigator.onLine !== false;
  }

  // --- the queue: deals saved offline, sent in order when there is a connection ----------

  function render() {
    var queue = read(QUEUE, []);
    list.replaceChildren();
    queue.forEach(function (item, index) {
      var li = document.createElement("li");
      var names = item.names.join(", ");
      if (item.refused) {
        li.className = "refused";
        li.append(t("refused", { time: clock(item.at), names: names }) + " ");
        var open = document.createElement("button");
        open.type = "button";
        open.className = "secondary";
        open.textContent = t("open_to_fix");
        open.addEventListener("click", function () {
          var rest = read(QUEUE, []);
          rest.splice(index, 1);
          write(QUEUE, rest.length ? rest : null);
          write("scorekeeper:draft:" + session, { values: item.values, at: item.at });
          window.location.href = board.dataset.dealUrl;
        });
        li.appendChild(open);
      } else {
        li.textContent = t("queued_item", { time: clock(item.at), names: names });
      }
      list.appendChild(li);
    });
    board.hidden = queue.length === 0;
  }

  var sending = false;
  function send() {
    var queue = read(QUEUE, []);
    var item = queue.filter(function (q) { return !q.refused; })[0];
    if (!item || sending || navigator.onLine === false) return;
    sending = true;
    var body = new URLSearchParams(item.values);
    fetch(item.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": item.values.csrfmiddlewaretoken || "" },
    }).then(function (response) {
      var rest = read(QUEUE, []).filter(function (q) { return q.key !== item.key; });
      if (response.ok && response.redirected) {
        write(QUEUE, rest.length ? rest : null);
        landed(item);
      } else if (response.status >= 400 && response.status < 500) {
        item.refused = true;
        write(QUEUE, rest.concat([item]));
      } else {
        throw new Error("try later");
      }
      sending = false;
      render();
      send();
    }).catch(function () { sending = false; });
  }

  function landed(item) {
    if (form) {
      var note = document.getElementById("draft-text");
      note.textContent = t("landed", { time: clock(item.at) });
      document.getElementById("draft-discard").hidden = true;
      note.parentElement.hidden = false;
    } else {
      window.location.reload(); // the scoreboard, with the deal that just landed
    }
  }

  window.addEventListener("online", function () { showBanner(); send(); });
  window.addEventListener("offline", showBanner);
  showBanner();
  // A queued deal already stored (sent by another page, its answer lost) leaves the queue.
  write(QUEUE, read(QUEUE, []).filter(function (q) { return saved.indexOf(q.key) < 0; }));
  if (!read(QUEUE, []).length) write(QUEUE, null);
  render();
  send();

  if (!form) return;

  // --- the draft of the deal being typed ---------------------------------------------------

  var notice = document.getElementById("draft-notice");
  var keyField = form.querySelector("input[name=idempotency_key]");

  function keepDraft() {
    var values = fields();
    write(DRAFT, typed(values) ? { values: values, at: Date.now() } : null);
  }

  var draft = read(DRAFT, null);
  if (draft && saved.indexOf(draft.values.idempotency_key) >= 0) {
    write(DRAFT, null); // saved while this page was away
  } else if (draft && !typed(fields()) && typed(draft.values)) {
    fill(draft.values);
    document.getElementById("draft-text").textContent =
      t("restored", { time: clock(draft.at) });
    notice.hidden = false;
  }

  document.getElementById("draft-discard").addEventListener("click", function () {
    write(DRAFT, null);
    var fresh = {};
    fresh.idempotency_key = newKey();
    fill(fresh);
    notice.hidden = true;
  });

  form.addEventListener("input", keepDraft);
  form.addEventListener("change", keepDraft);

  window.addEventListener("beforeunload", function (event) {
    if (leaving || !typed(fields())) return;
    event.preventDefault();
    event.returnValue = "";
  });

  form.addEventListener("submit", function (event) {
    var save = !event.submitter || event.submitter.name === "save";
    if (!save || navigator.onLine !== false) {
      leaving = true; // the draft stays until the scoreboard has the deal
      return;
    }
    event.preventDefault();
    if (correcting) {
      document.getElementById("draft-text").textContent =
        t("offline_correction");
      notice.hidden = false;
      return;
    }
    var values = fields();
    if (event.submitter) values[event.submitter.name] = event.submitter.value;
    var names = Array.prototype.map.call(form.querySelectorAll("fieldset.seat legend"), function (legend) {
      return legend.firstChild.textContent.trim();
    });
    var queue = read(QUEUE, []);
    queue.push({ key: values.idempotency_key, values: values, at: Date.now(), names: names, url: form.action || window.location.href });
    write(QUEUE, queue);
    write(DRAFT, null);
    fill({ idempotency_key: newKey() });
    document.getElementById("draft-text").textContent =
      t("queued");
    document.getElementById("draft-discard").hidden = true;
    notice.hidden = false;
    render();
    window.scrollTo(0, 0);
  });
})();
