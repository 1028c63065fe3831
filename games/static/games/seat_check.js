// A seat's page (/seat/<token>/), beside live.js: what the deal form says under each row,
// said here as the seat's rows fill. The server checks this one entry (POST
// .../live/seats/<seat>/check/, which reads no other seat and stores nothing); a hand that
// fouls stops the first tap on Submit, and the second goes through. Once submitted, the
// page says what was; once the deal is recorded, the seat's own pairs and money. live.js
// tells each state it shows with the "scorekeeper:live" event; nothing here changes what
// it sends, and a check that cannot be made never holds Submit back.
(function () {
  "use strict";
  var t = window.scorekeeperText;
  var node = document.getElementById("live-config");
  var form = document.getElementById("deal-form");
  if (!node || !form || !window.fetch || !window.scorekeeperLive) return;
  var config = JSON.parse(node.textContent);
  if (!config.token) return;
  var ROWS = ["front", "middle", "back"];
  var WAIT_MS = 250;
  var submit = document.getElementById("live-submit");
  var submitText = submit ? submit.textContent : "";
  var timer = null;
  var asked = 0; // checks sent: only the latest one's answer is shown
  var askedKey = null; // the entry the latest check is about
  var checked = null; // { key, body }: the last answer, and the entry it is about
  var warned = null; // the entry whose foul stopped a Submit once
  var state = null; // the last state live.js showed
  var liveId = null;
  var dealShown = null; // the number of the recorded deal whose pairs are shown
  var dealAsked = null; // the number of the recorded deal fetched in this page's language

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }
  // The live API and the entry as live.js has them (its seat token and this phone's
  // secret; the form read as it sends it).
  var live = window.scorekeeperLive;
  function api(method, path, body) {
    return live.api(method, path, body).then(function (answer) { return answer.ok ? answer.body : null; });
  }
  var readEntry = live.readEntry;
  function capitalised(text) { return text.charAt(0).toUpperCase() + text.slice(1); }
  function zero(units) { return /^-?0(\.0*)?$/.test(String(units)); }
  function blank(entry) {
    return Object.keys(entry).every(function (key) { return ROWS.indexOf(key) >= 0 && !entry[key]; });
  }

  // ---- Each row's hand, the foul, what is declared. ----
  function showRow(row, told) {
    var box = $("p0-" + row + "-fb");
    if (!box) return;
    box.replaceChildren();
    if (!told) return;
    if (told.cards && told.cards.length) box.appendChild(window.scorekeeperHand(told.cards));
    [["label", told.label], ["progress", told.progress], ["error", told.error]].forEach(function (part) {
      if (!part[1]) return;
      box.append(" ");
      box.appendChild(el("span", part[0], part[1]));
    });
    if (told.duplicate) {
      box.append(" ");
      box.appendChild(el("span", "dup", t("twice", { cards: told.duplicate })));
    }
  }

  // Whether an answer says the hand fouls as it would be submitted.
  function fouls(body) {
    return !!body && !!body.foul && !body.surrender && !body.not_shown && !body.natural;
  }

  function showFoul() {
    var box = $("p0-foul");
    var body = checked && checked.body;
    var foul = fouls(body);
    var stopped = foul && warned === checked.key;
    box.hidden = !foul;
    box.textContent = foul ? t(stopped ? "check_stopped" : "foul", { foul: body.foul }) : "";
    box.classList.toggle("warned", stopped);
    if (stopped) box.setAttribute("role", "alert");
    else box.removeAttribute("role");
    if (submit) submit.textContent = stopped ? t("check_submit_anyway") : submitText;
  }

  function declared(body) {
    if (!body) return "";
    if (body.surrender) return t("check_surrendered");
    if (body.not_shown) return t("check_not_shown");
    if (body.natural) return t("check_natural", { name: body.natural.name });
    return "";
  }

  function show(body) {
    ROWS.forEach(function (row) { showRow(row, body && body.rows[row]); });
    var line = $("p0-declared");
    if (line) {
      line.textContent = declared(body);
      line.hidden = !line.textContent;
    }
    showFoul();
    showSummary();
  }

  function check() {
    var entry = readEntry();
    var key = JSON.stringify(entry);
    var mine = ++asked;
    askedKey = key;
    if (blank(entry)) { checked = { key: key, body: null }; show(null); return; }
    api("POST", "seats/" + config.seat + "/check/", { entry: entry }).then(function (body) {
      if (mine !== asked) return;
      checked = body ? { key: key, body: body } : null;
      if (!body) askedKey = null;
      show(body);
    }).catch(function () {
      // Offline: nothing is known against this entry, so Submit is never held back.
      if (mine !== asked) return;
      askedKey = null;
      checked = null;
      showFoul();
    });
  }

  function changed() {
    var key = JSON.stringify(readEntry());
    if (warned !== null && warned !== key) { warned = null; showFoul(); }
    if (key === askedKey) return; // a change event after the input events it follows
    clearTimeout(timer);
    timer = setTimeout(check, WAIT_MS);
  }
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);

  // Before live.js sends the hand (its listener is on the form, this one on the document in
  // the capture phase, so it runs first): a hand the last check says fouls is stopped once.
  document.addEventListener("submit", function (event) {
    if (event.target !== form) return;
    var key = JSON.stringify(readEntry());
    if (!checked || checked.key !== key || !fouls(checked.body) || warned === key) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    warned = key;
    showFoul();
    $("p0-foul").scrollIntoView({ block: "center" });
  }, true);

  // ---- What was submitted. ----
  function showSummary() {
    var list = $("live-done-summary");
    if (!list) return;
    var live = state && state.live;
    var you = live && live.you;
    var body = checked && checked.body;
    var lines = [];
    if (live && live.status === "open" && you && you.submitted && body) {
      var said = declared(body);
      if (said) lines.push(said);
      else {
        ROWS.forEach(function (row) {
          var told = body.rows[row] || {};
          var hand = told.label || told.progress || told.error;
          if (hand) lines.push(t("check_row", { row: capitalised(t("rows." + row)), hand: hand }));
        });
        if (body.foul) lines.push(t("foul", { foul: body.foul }));
      }
    }
    list.replaceChildren.apply(list, lines.map(function (text) { return el("li", "", text); }));
    list.hidden = !lines.length;
  }

  // ---- The recorded deal: this seat against each opponent, and its money. ----
  function seatName(live) {
    var mine = (live.seats || []).filter(function (s) { return s.seat === config.seat; })[0];
    return mine ? mine.player : live.you && live.you.player;
  }

  function pairLine(pair, me) {
    var other = pair.winner === me ? pair.loser : pair.winner;
    var line;
    if (zero(pair.units)) line = t("pair_even", { player: other });
    else if (pair.winner === me) line = t("pair_won", { units: "+" + pair.units, player: other });
    else line = t("pair_lost", { units: "-" + pair.units, player: other });
    var li = el("li", zero(pair.units) ? "" : pair.winner === me ? "won" : "lost");
    li.appendChild(el("span", "", pair.reason ? t("pair_reason", { line: line, reason: pair.reason }) : line));
    return li;
  }

  function showDeal(live, deal) {
    var box = $("live-result-mine");
    if (!box) return;
    var me = seatName(live);
    var pairs = (deal.pairs || []).filter(function (p) { return p.winner === me || p.loser === me; });
    var list = $("live-result-pairs");
    list.replaceChildren.apply(list, pairs.map(function (pair) { return pairLine(pair, me); }));
    var money = $("live-result-money");
    var amounts = [];
    if (deal.money_text && deal.money_text[me] !== undefined) {
      amounts.push(t("money_deal", { amount: deal.money_text[me] }));
    }
    if (deal.total_money_text && deal.total_money_text[me] !== undefined) {
      amounts.push(t("money_night", { amount: deal.total_money_text[me] }));
    }
    money.replaceChildren.apply(money, amounts.map(function (text) { return el("span", "", text); }));
    money.hidden = !amounts.length;
    box.hidden = !pairs.length && !amounts.length;
    dealShown = deal.number;
  }

  // A state pushed over the WebSocket is in the language of the phone whose write made it:
  // a page read in another language asks for its own words once per deal.
  function followDeal(live) {
    var deal = live && live.deal;
    var box = $("live-result-mine");
    if (!deal) {
      if (box) box.hidden = true;
      dealShown = null;
      return;
    }
    if (!deal.language || deal.language === document.documentElement.lang) {
      showDeal(live, deal);
      return;
    }
    if (dealShown === deal.number || dealAsked === deal.number) return;
    dealAsked = deal.number;
    api("GET", "").then(function (body) {
      var fresh = body && body.live;
      if (fresh && fresh.deal && fresh.deal.number === deal.number) showDeal(fresh, fresh.deal);
    }).catch(function () { dealAsked = null; });
  }

  document.addEventListener("scorekeeper:live", function (event) {
    state = event.detail;
    var live = state && state.live;
    if (live && live.id !== liveId) {
      // A new deal in progress: its entry is checked afresh (live.js has put it in the form).
      liveId = live.id;
      warned = null;
      showFoul();
    }
    showSummary();
    followDeal(live);
  });
})();
