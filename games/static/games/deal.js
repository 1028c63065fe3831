// Live feedback on the deal form: as rows are typed, ask the server (which asks the engine)
// for each row's hand, fouls, cards given twice and the deal's units. Saving needs none of
// this: the form posts as a plain form and the server shows the same feedback on an error.
(function () {
  "use strict";
  var t = window.scorekeeperText;
  var form = document.getElementById("deal-form");
  if (!form || !window.fetch) return;
  var url = form.dataset.preview;
  var timer = null;
  var sent = 0;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The server's errors as the page came with them (a save refused): each stays on screen,
  // whatever the live feedback says, until what it is about is changed.
  var server = {};
  function snapshot(node) {
    return Array.prototype.map.call(node.querySelectorAll("input, select, textarea"), function (f) {
      return f.type === "checkbox" ? String(f.checked) : f.value;
    }).join("\u0000");
  }
  form.querySelectorAll(".feedback .error[role=alert], .seat-error:not([hidden])").forEach(function (node) {
    var box = node.closest(".feedback") || node;
    var about = document.getElementById(box.id.replace(/-fb$/, ""));
    var scope = box.classList.contains("seat-error") ? box.closest("fieldset") : about;
    if (!scope) return;
    server[box.id] = { text: node.textContent.trim(), about: about, scope: scope.closest(".row-entry") || scope };
    server[box.id].was = snapshot(server[box.id].scope);
  });
  // Whether the server's error for this box still holds (what it names is unchanged).
  function kept(id) {
    var error = server[id];
    if (!error) return false;
    if (snapshot(error.scope) === error.was) return true;
    delete server[id];
    if (error.about && error.about !== error.scope) error.about.removeAttribute("aria-invalid");
    error.scope.querySelectorAll("[aria-invalid]").forEach(function (f) { f.removeAttribute("aria-invalid"); });
    return false;
  }
  function keep(box) {
    if (!kept(box.id) || box.textContent.indexOf(server[box.id].text) >= 0) return;
    var span = el("span", "error", server[box.id].text);
    span.setAttribute("role", "alert");
    box.append(" ");
    box.appendChild(span);
  }

  function showRow(id, row) {
    var box = document.getElementById(id + "-fb");
    if (!box) return;
    box.replaceChildren();
    if (!row) { keep(box); return; }
    if (row.cards && row.cards.length) box.appendChild(window.scorekeeperHand(row.cards));
    if (row.label) { box.append(" "); box.appendChild(el("span", "label", row.label)); }
    if (row.progress && !kept(id + "-fb")) {
      box.append(" ");
      box.appendChild(el("span", "progress", row.progress));
    }
    if (row.error) { box.append(" "); box.appendChild(el("span", "error", row.error)); }
    keep(box);
    if (row.duplicate) { box.append(" "); box.appendChild(el("span", "dup", t("twice", { cards: row.duplicate }))); }
  }

  function showSeats(seats) {
    seats.forEach(function (seat, k) {
      var prefix = "p" + k + "-";
      var fieldset = form.querySelector('fieldset[data-seat="' + k + '"]');
      if (fieldset) fieldset.classList.toggle("sat-out", !!seat.sat_out);
      var seatError = document.getElementById(prefix + "error");
      if (seatError && !kept(seatError.id)) { seatError.hidden = true; seatError.textContent = ""; }
      Object.keys(seat.rows).forEach(function (row) { showRow(prefix + row, seat.rows[row]); });
      var foul = document.getElementById(prefix + "foul");
      if (foul) {
        foul.hidden = !seat.foul;
        foul.textContent = seat.foul ? t("foul", { foul: seat.foul }) : "";
      }
    });
  }

  function showPreview(body) {
    var target = document.getElementById("preview-body");
    if (!target) return;
    target.replaceChildren();
    if (body.error) {
      target.appendChild(el("p", "error", body.error.message));
      // Also beside the row it names, unless that row already says what is wrong.
      var box = document.getElementById("p" + body.error.seat + "-" + (body.error.row || "error") + "-fb")
        || document.getElementById("p" + body.error.seat + "-error");
      if (box && !box.querySelector(".error, .dup")) {
        if (box.classList.contains("seat-error")) {
          box.textContent = body.error.message;
          box.hidden = false;
        } else {
          box.append(" ");
          box.appendChild(el("span", "error", body.error.message));
        }
      }
      return;
    }
    if (!body.units) {
      target.appendChild(el("p", "muted", t("units_appear")));
      return;
    }
    var table = el("table");
    var head = el("tr");
    var rowUnits = el("tr");
    body.units.forEach(function (p) {
      var th = el("th", "num", p.name);
      th.scope = "col";
      head.appendChild(th);
      rowUnits.appendChild(el("td", "num", p.fouled ? t("units_fouled", { units: p.units }) : p.units));
    });
    var thead = el("thead"); thead.appendChild(head);
    var tbody = el("tbody"); tbody.appendChild(rowUnits);
    table.appendChild(thead); table.appendChild(tbody);
    var wrap = el("div", "scroll"); // long names scroll inside, not the page
    wrap.appendChild(table);
    target.appendChild(wrap);
    var list = el("ul", "pairs");
    body.pairs.forEach(function (pair) {
      var li = el("li");
      li.appendChild(el("span", "", pair.players[0] + " – " + pair.players[1]));
      li.appendChild(el("strong", "num", pair.units));
      var kind = t("kinds." + pair.kind);
      if (kind === "kinds." + pair.kind) kind = pair.kind; // no words of its own: as the engine names it
      li.appendChild(el("span", "muted", pair.scoop ? t("scoops", { name: pair.scoop }) : kind));
      list.appendChild(li);
    });
    target.appendChild(list);
    target.appendChild(el("p", "hint", t("not_saved")));
  }

  function ask(extra) {
    var data = new FormData(form);
    if (extra) Object.keys(extra).forEach(function (key) { data.append(key, extra[key]); });
    var mine = ++sent;
    return fetch(url, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "X-CSRFToken": data.get("csrfmiddlewaretoken") || "" },
    }).then(function (response) {
      return response.json().then(function (body) {
        return { ok: response.ok, body: body, latest: mine === sent };
      });
    });
  }

  function refresh() {
    ask().then(function (answer) {
      if (!answer.latest || !answer.ok) return;
      showSeats(answer.body.seats);
      showPreview(answer.body);
    }).catch(function () { /* offline: saving still works as a plain form */ });
  }

  form.addEventListener("input", function (event) {
    // A row changed after the server called it wrong is no longer marked wrong.
    var box = document.getElementById(event.target.id + "-fb");
    if (box && !kept(box.id)) {
      box.querySelectorAll(".error[role=alert]").forEach(function (node) { node.remove(); });
    }
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  });
  form.addEventListener("change", function (event) {
    if (event.target.type === "checkbox" || event.target.tagName === "SELECT") refresh();
  });

  form.addEventListener("click", function (event) {
    var button = event.target.closest("button[name=arrange]");
    if (!button) return;
    event.preventDefault();
    var k = button.value;
    var box = document.getElementById("p" + k + "-cards13-fb");
    ask({ arrange: k }).then(function (answer) {
      if (!answer.ok) {
        box.replaceChildren(el("span", "error", answer.body.arrange_error || t("cannot_arrange")));
        return;
      }
      box.replaceChildren(el("span", "label", t("check_rows", { how: answer.body.arranged.how || t("arranged") })));
      ["front", "middle", "back"].forEach(function (row) {
        document.getElementById("p" + k + "-" + row).value = answer.body.arranged[row];
      });
      refresh();
      document.getElementById("p" + k + "-front").focus();
    }).catch(function () { form.requestSubmit(button); });
  });

  // A form re-shown after an error: the first error is brought into view, and focused
  // (the row it names, or the message itself).
  var first = form.querySelector(".seat-error:not([hidden]), .feedback .error[role=alert]");
  var formError = document.getElementById("form-error");
  if (formError || first) {
    var fieldset = first && first.closest("fieldset.seat");
    var row = first && first.closest(".row-entry");
    var focus = formError
      || (row && row.querySelector("input, textarea"))
      || (fieldset && fieldset.querySelector("input:not([type=checkbox]), select"))
      || first;
    if (!focus.matches("input, textarea, select")) focus.tabIndex = -1;
    focus.focus({ preventScroll: true });
    (formError || row || fieldset || first).scrollIntoView({ block: "center" });
  }

  // A form re-shown after an error already has its feedback; a correction starts typed.
  var typed = Array.prototype.some.call(form.querySelectorAll("input[data-row]"), function (input) {
    return input.value.trim() !== "";
  });
  if (typed) refresh();
})();
