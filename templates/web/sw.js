{% autoescape off %}// Scorekeeper's service worker (games/web/app.py). Version {{ version }}.
"use strict";
var SHELL = "scorekeeper-shell-{{ version }}";
var PAGES = "scorekeeper-pages";
var SHELL_FILES = {{ shell }};
var OFFLINE = {{ offline }};
var STATIC = {{ static_prefix }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL).then(function (cache) { return cache.addAll(SHELL_FILES); })
      .then(function () { return self.skipWaiting(); })
  );
});

// The files of an older release go; every open page is looked after at once.
self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("scorekeeper-shell-") === 0 && name !== SHELL;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function keep(request, response) {
  var type = response.headers.get("Content-Type") || "";
  if (!response.ok || response.redirected || type.indexOf("text/html") !== 0) return;
  var copy = response.clone();
  caches.open(PAGES).then(function (cache) { cache.put(request, copy); });
}

// A page: from the network, its copy kept; without a network, the copy kept last, else
// the offline page.
function page(request) {
  return fetch(request).then(function (response) {
    keep(request, response);
    return response;
  }, function () {
    return caches.open(PAGES).then(function (cache) { return cache.match(request); })
      .then(function (kept) { return kept || caches.match(OFFLINE); })
      .then(function (kept) { return kept || Response.error(); });
  });
}

// A static file: its name changes with its content, so a copy kept is the right one.
function file(request) {
  return caches.match(request).then(function (kept) {
    if (kept) return kept;
    return fetch(request).then(function (response) {
      if (response.ok) {
        var copy = response.clone();
        caches.open(SHELL).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (/^\/(api|ws|admin|api-auth)\//.test(url.pathname)) return; // always the network
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.indexOf(STATIC) === 0) event.respondWith(file(request));
});

// From the pages (app.js): keep this page now (opened before the worker looked after
// it), or forget every page kept (signed out).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.keep) {
    event.waitUntil(caches.open(PAGES).then(function (cache) {
      return fetch(data.keep, { credentials: "same-origin" }).then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        if (response.ok && !response.redirected && type.indexOf("text/html") === 0) {
          return cache.put(data.keep, response);
        }
      });
    }).catch(function () {}));
  }
  if (data.forget) event.waitUntil(caches.delete(PAGES));
});
{% endautoescape %}
