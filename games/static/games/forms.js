// Every page's forms. Forms that act at once and are hard to take back (close a session,
// void a deal) carry their question in data-confirm: the browser asks it before the form
// is sent (without script the form is sent as it is). A page shown again with an error
// opens at the first one, its field focused (the deal page does this in deal.js).
(function () {
  "use strict";
  // The words scripts write, translated by the server into base.html's JSON data block
  // (games/web/script_strings.py): scorekeeperText("tap_for", { row: "Front" }).
  var texts = null;
  window.scorekeeperText = function (key, values) {
    if (texts === null) {
      var node = document.getElementById("js-strings");
      try { texts = node ? JSON.parse(node.textContent) : {}; } catch (e) { texts = {}; }
    }
    var text = key.split(".").reduce(function (table, part) { return table && table[part]; }, texts);
    if (typeof text !== "string") return key;
    return text.replace(/%\((\w+)\)s/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  };
  // A row's cards as the server reads them ({rank, suit, red, text}), for the deal form's
  // feedback and a seat's on the live table.
  window.scorekeeperHand = function (cards) {
    var hand = document.createElement("span");
    hand.className = "hand";
    cards.forEach(function (c) {
      var card = document.createElement("span");
      card.className = c.red ? "card red" : "card";
      card.textContent = c.rank + c.suit;
      card.title = c.text;
      hand.appendChild(card);
    });
    return hand;
  };
  document.addEventListener("submit", function (event) {
    var question = event.target.dataset && event.target.dataset.confirm;
    if (question && !window.confirm(question)) event.preventDefault();
  }, true);

  if (document.getElementById("deal-form")) return;
  var main = document.getElementById("main");
  var first = main && (main.querySelector("[aria-invalid=true]") || main.querySelector(".error[role=alert]"));
  if (!first) return;
  var field = first.matches("input, select, textarea") ? first
    : (first.closest(".option, p, div") || first).querySelector("input, select, textarea");
  var focus = field || first;
  if (focus === first && !field) first.tabIndex = -1;
  focus.focus({ preventScroll: true });
  focus.scrollIntoView({ block: "center" });
})();
