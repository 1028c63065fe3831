// The card picker on the deal form: one tap puts a card in the highlighted row, the cards
// used anywhere in the deal are greyed out, a card shown under a row goes back to the grid
// with a tap. The rows stay plain text inputs: what the picker does is typed into them (and
// announced with an "input" event, so the live feedback and the draft follow), and what is
// typed is read back, so taps and typing never disagree. A player whose three rows are
// filled by taps folds away and the next player's first empty row is highlighted.
(function () {
  "use strict";
  var t = window.scorekeeperText;
  var form = document.getElementById("deal-form");
  var picker = document.getElementById("picker");
  if (!form || !picker) return;
  var grid = document.getElementById("picker-grid");
  var target = document.getElementById("picker-target");
  var hideButton = document.getElementById("picker-hide");
  var showButton = document.getElementById("picker-show");
  var ROWS = ["front", "middle", "back"];
  var SIZES = { front: 3, middle: 5, back: 5 };
  var RANKS = "23456789TJQKA";
  var SUITS = { c: "c", d: "d", h: "h", s: "s", "♣": "c", "♦": "d", "♥": "h", "♠": "s" };
  var SYMBOL = { c: "♣", d: "♦", h: "♥", s: "♠" };
  var seats = Array.prototype.slice.call(form.querySelectorAll("fieldset.seat"));
  var active = null; // the input the next tapped card goes to

  // The cards of a row's text as "Kh" strings, or null when it is not (yet) all cards:
  // the same notations the server reads (any case, suit symbols, "10", commas).
  function parse(text) {
    var s = text.replace(/\uFE0F/g, "").replace(/[,;]/g, " ").replace(/10/g, "T");
    var cards = [];
    var i = 0;
    while (i < s.length) {
      var ch = s[i];
      if (/\s/.test(ch)) { i += 1; continue; }
      var rank = ch.toUpperCase();
      var suit = SUITS[(s[i + 1] || "").toLowerCase()] || SUITS[s[i + 1]];
      if (RANKS.indexOf(rank) < 0 || !suit) return null;
      cards.push(rank + suit);
      i += 2;
    }
    return cards;
  }

  function input(k, row) { return document.getElementById("p" + k + "-" + row); }
  function seatOf(el) { return Number(el.closest("fieldset.seat").dataset.seat); }
  function cardsOf(el) { return parse(el.value) || []; }
  function full(el) { var c = parse(el.value); return !!c && c.length >= SIZES[el.dataset.row]; }

  // Seats with no rows to fill: sitting out, surrendered, or a natural declared from the
  // 13 cards laid out below (the server sets the rows).
  function skipped(k) {
    var out = document.getElementById("p" + k + "-sat_out");
    var surrender = document.getElementById("p" + k + "-surrender");
    var natural = document.getElementById("p" + k + "-natural");
    var cards13 = document.getElementById("p" + k + "-cards13");
    var declared = natural && natural.value && cards13 && (parse(cards13.value) || []).length === 13;
    return (out && out.checked) || (surrender && surrender.checked) || !!declared;
  }

  function seatDone(k) {
    return ROWS.every(function (row) { return full(input(k, row)); });
  }

  // The first row not yet full, searching from seat k onwards (then from the first seat).
  function nextOpen(k) {
    for (var step = 0; step < seats.length; step += 1) {
      var j = (k + step) % seats.length;
      if (skipped(j)) continue;
      for (var r = 0; r < ROWS.length; r += 1) {
        if (!full(input(j, ROWS[r]))) return input(j, ROWS[r]);
      }
    }
    return null;
  }

  function chip(card) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "chip" + (card[1] === "d" || card[1] === "h" ? " red" : "");
    button.dataset.card = card;
    var face = (card[0] === "T" ? "10" : card[0]) + SYMBOL[card[1]];
    button.textContent = face;
    // Its name starts with what it shows, so voice control finds it by saying "A♠".
    var hint = document.createElement("span");
    hint.className = "visually-hidden";
    hint.textContent = " (" + t("return_card", { card: face }) + ")";
    button.appendChild(hint);
    return button;
  }

  function chipsFor(el) {
    var id = el.id + "-chips";
    var box = document.getElementById(id);
    if (!box) {
      box = document.createElement("div");
      box.id = id;
      box.className = "chips";
      el.insertAdjacentElement("afterend", box);
    }
    return box;
  }

  function label(el) {
    var k = seatOf(el);
    var legend = seats[k].querySelector("legend");
    var name = legend.firstChild ? legend.firstChild.textContent.trim() : "";
    var row = el.dataset.row;
    var rowName = t("rows." + row);
    return t("row_progress", {
      name: name,
      row: rowName[0].toUpperCase() + rowName.slice(1),
      count: cardsOf(el).length,
      size: SIZES[row],
    });
  }

  // Greys the used cards, redraws each row's chips, says which row the next card fills.
  function sync() {
    var used = {};
    form.querySelectorAll("input[data-row]").forEach(function (el) {
      var cards = cardsOf(el);
      cards.forEach(function (card) { used[card] = true; });
      var box = chipsFor(el);
      box.replaceChildren.apply(box, cards.map(chip));
      el.closest(".row-entry").classList.toggle("active", el === active && !picker.hidden);
    });
    grid.querySelectorAll("button.pick").forEach(function (button) {
      button.disabled = !!used[button.dataset.card];
    });
    target.textContent = active
      ? t("tap_for", { row: label(active) })
      : t("every_hand_in");
  }

  function announce(el) {
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }

  // The picker sits just after the seat it fills, so the rows and the cards are on screen
  // together; the page scrolls so that the highlighted row shows above the picker.
  function place(el) {
    var fieldset = seats[seatOf(el)];
    if (fieldset.nextElementSibling !== picker) fieldset.insertAdjacentElement("afterend", picker);
    var box = el.closest(".row-entry").getBoundingClientRect();
    var limit = Math.min(window.innerHeight, picker.getBoundingClientRect().top) - 8;
    if (box.top < 0) window.scrollBy(0, box.top - 8);
    else if (box.bottom > limit) window.scrollBy(0, box.bottom - limit);
  }

  function fold(k, folded) {
    var fieldset = seats[k];
    fieldset.classList.toggle("folded", folded);
    var button = fieldset.querySelector("button.unfold");
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "unfold secondary";
      fieldset.querySelector("legend").insertAdjacentElement("afterend", button);
    }
    var name = fieldset.querySelector("legend").firstChild.textContent.trim();
    button.textContent = t("change_cards", { name: name });
    button.hidden = !folded;
  }

  function activate(el, still) {
    active = el;
    picker.hidden = !el || picker.classList.contains("off");
    if (el && !still) place(el);
    sync();
  }

  // After a tap: stay in the row until it is full, then the next open row; a player all
  // of whose rows are full folds away.
  function advance(el) {
    if (!full(el)) { activate(el); return; }
    var k = seatOf(el);
    var next = nextOpen(k);
    // (A form of one seat, the live table's, keeps its rows in view to be checked.)
    if (seats.length > 1 && seatDone(k) && (!next || seatOf(next) !== k)) fold(k, true);
    activate(next);
    if (!next) {
      var save = form.querySelector(".actions button[name=save]");
      if (save) { save.scrollIntoView({ block: "center" }); save.focus({ preventScroll: true }); }
    }
  }

  grid.addEventListener("click", function (event) {
    var button = event.target.closest("button.pick");
    if (!button || button.disabled) return;
    var el = active && !full(active) ? active : nextOpen(active ? seatOf(active) : 0);
    if (!el) return;
    var typed = el.value.trim();
    var keyboard = document.activeElement === button;
    var place = openCards().indexOf(button);
    el.value = (typed ? typed + " " : "") + button.dataset.card;
    announce(el);
    advance(el);
    // The card just used is greyed out and cannot keep the focus: the next one takes it,
    // so a keyboard stays in the grid (a tap leaves the focus where it was).
    if (keyboard) {
      var open = openCards();
      var next = open[Math.min(place, open.length - 1)];
      if (next) next.focus({ preventScroll: true });
    }
  });

  // The cards still to be picked, in the grid's order.
  function openCards() {
    return Array.prototype.filter.call(grid.querySelectorAll("button.pick"), function (b) {
      return !b.disabled;
    });
  }

  // Arrow keys move between the cards still to be picked: left and right in order, up
  // and down to the nearest card of the line above or below (seven or thirteen a line).
  grid.addEventListener("keydown", function (event) {
    var moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -2, ArrowDown: 2, Home: 0, End: 0 };
    if (!(event.key in moves) || !event.target.matches("button.pick")) return;
    var open = openCards();
    var here = open.indexOf(event.target);
    var next = null;
    if (event.key === "Home") next = open[0];
    else if (event.key === "End") next = open[open.length - 1];
    else if (Math.abs(moves[event.key]) === 1) next = open[here + moves[event.key]];
    else {
      var box = event.target.getBoundingClientRect();
      var down = moves[event.key] > 0;
      var lines = open.filter(function (b) {
        var top = b.getBoundingClientRect().top;
        return down ? top > box.top + 4 : top < box.top - 4;
      });
      if (lines.length) {
        var lineTop = lines.map(function (b) { return b.getBoundingClientRect().top; })
          .reduce(function (a, b) { return down ? Math.min(a, b) : Math.max(a, b); });
        var line = lines.filter(function (b) { return Math.abs(b.getBoundingClientRect().top - lineTop) < 4; });
        next = line.reduce(function (best, b) {
          var gap = Math.abs(b.getBoundingClientRect().left - box.left);
          return !best || gap < Math.abs(best.getBoundingClientRect().left - box.left) ? b : best;
        }, null);
      }
    }
    if (next) { event.preventDefault(); next.focus(); }
  });

  form.addEventListener("click", function (event) {
    var back = event.target.closest("button.chip");
    if (back) {
      var row = back.parentElement.previousElementSibling;
      var cards = cardsOf(row);
      cards.splice(cards.indexOf(back.dataset.card), 1);
      row.value = cards.join(" ");
      announce(row);
      activate(row);
      return;
    }
    var unfold = event.target.closest("button.unfold");
    if (unfold) {
      var k = seatOf(unfold);
      fold(k, false);
      activate(nextOpen(k) && seatOf(nextOpen(k)) === k ? nextOpen(k) : input(k, "front"));
    }
  });

  form.addEventListener("focusin", function (event) {
    if (event.target.matches("input[data-row]") && event.target !== active) {
      activate(event.target);
    }
  });
  form.addEventListener("input", function (event) {
    if (!event.target.matches("input[data-row]")) return;
    // Rows emptied from outside (a draft put back, the form cleared for the next deal):
    // a folded player with rows to fill opens again, and the picker finds a row.
    seats.forEach(function (fieldset, k) {
      if (fieldset.classList.contains("folded") && !seatDone(k)) fold(k, false);
    });
    if (!active || (event.target !== active && full(active))) activate(nextOpen(0), true);
    else sync();
  });
  form.addEventListener("change", function (event) {
    if (event.target.type === "checkbox") sync();
  });

  // Enter in a row moves on to the next row still to fill; only a deal with every row
  // full is saved by it (the server would refuse the rest, and nothing typed moves).
  form.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.matches("input[data-row]")) return;
    event.preventDefault();
    var rows = Array.prototype.filter.call(form.querySelectorAll("input[data-row]"), function (el) {
      return !skipped(seatOf(el));
    });
    var here = rows.indexOf(event.target);
    var open = rows.filter(function (el) { return !full(el); });
    var next = open.filter(function (el) { return rows.indexOf(el) > here; })[0] || open[0];
    if (!next) {
      form.requestSubmit(form.querySelector(".actions button[name=save]"));
      return;
    }
    fold(seatOf(next), false);
    next.focus();
  });

  hideButton.addEventListener("click", function () {
    picker.classList.add("off");
    picker.hidden = true;
    showButton.hidden = false;
    sync();
  });
  showButton.addEventListener("click", function () {
    picker.classList.remove("off");
    showButton.hidden = true;
    activate(active || nextOpen(0));
  });

  form.classList.add("picking");
  seats.forEach(function (_, k) { fold(k, false); });
  // A form shown again with an error has its error focused (deal.js): the picker fills
  // that row and leaves the page where it is.
  var focused = document.activeElement;
  if (focused && focused.matches && focused.matches("input[data-row]")) activate(focused, true);
  else activate(nextOpen(0), !!form.querySelector("[role=alert]:not([hidden])") || !!document.getElementById("form-error"));
  // The form opened with every row given (a correction): the picker waits until a row is
  // chosen.
  if (!active) picker.hidden = true;
})();
