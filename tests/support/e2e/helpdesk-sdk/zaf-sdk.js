// Stand-in of Zendesk's ZAF SDK v2 (static.zdassets.com/zendesk_app_framework_sdk/2.0/zaf_sdk.min.js) for the
// browser tests and the screenshots: exactly the calls Gatehouse's app makes — ZAFClient.init(), metadata(), get()
// of the ticket's paths, on() (app.registered fires once; the test fires the others), invoke("resize") and
// request(). request() hands the options, {{setting.token}} still in them, to "Zendesk's proxy"
// (https://zendesk-proxy.test), which the test answers from Node (tests/support/e2e/helpdesk.ts): the secure
// setting is put in there, never in this page. The ticket and the plain settings come from window.__helpdeskFixture.
(function () {
  "use strict";
  var fixture = window.__helpdeskFixture;
  var handlers = {};
  var calls = (window.__helpdeskCalls = []);

  function fire(name, data) {
    (handlers[name] || []).forEach(function (handler) {
      handler(data);
    });
  }

  var client = {
    metadata: function () {
      calls.push(["metadata"]);
      return Promise.resolve({ appId: 1, installationId: 1, settings: fixture.settings });
    },
    get: function (paths) {
      calls.push(["get", paths]);
      var list = Array.isArray(paths) ? paths : [paths];
      var answer = {};
      list.forEach(function (name) {
        answer[name] = fixture.data[name];
      });
      return Promise.resolve(answer);
    },
    on: function (name, handler) {
      (handlers[name] = handlers[name] || []).push(handler);
    },
    invoke: function (name, value) {
      calls.push(["invoke", name, value]);
      return Promise.resolve({});
    },
    request: function (options) {
      calls.push(["request", options.url]);
      return fetch("https://zendesk-proxy.test/request", { method: "POST", body: JSON.stringify(options) }).then(
        function (proxied) {
          return proxied.json().then(function (answer) {
            var response = {
              status: answer.status,
              headers: answer.headers,
              responseText: answer.responseText,
              responseJSON: answer.json ? JSON.parse(answer.responseText) : undefined,
            };
            if (answer.status >= 200 && answer.status < 300) return response;
            throw response;
          });
        },
        function () {
          throw { status: 0, responseText: "", headers: {} };
        },
      );
    },
  };

  window.ZAFClient = {
    init: function () {
      setTimeout(function () {
        fire("app.registered", { metadata: { settings: fixture.settings } });
      }, 0);
      return client;
    },
  };
  /** For the test: fire a framework event, as Zendesk does when the ticket changes. */
  window.__helpdeskFire = fire;
})();
