// Gatehouse's purchase check in Freshdesk's ticket sidebar (Freshworks platform 2.3). Reads the ticket with the
// data method and its replies with Freshdesk's API (request template freshdeskConversations), asks Gatehouse with
// request template helpdeskLookup — Freshworks' servers put the token from the secure installation parameters into
// its Authorization header; this page never has it — and shows the verdicts (verdicts.js, copied in when packed).
(function () {
  "use strict";

  var V = window.GatehouseVerdicts;

  /** An invokeTemplate rejection as the card reads it: Gatehouse's own error, or no answer from Gatehouse. */
  function failureOf(response) {
    var body = response && V.parseJson(response.response);
    var status = response && response.status;
    var fromGatehouse = Boolean(body && body.error && body.error.code);
    return {
      status: status,
      body: body,
      retryAfter: V.headerOf(response && response.headers, "Retry-After"),
      network: !status || !fromGatehouse,
    };
  }

  app.initialized().then(function (client) {
    var root = document.getElementById("gatehouse");
    var card = V.mount(root, check);
    var latest = 0;

    function resize() {
      client.instance.resize({
        height: Math.ceil(root.getBoundingClientRect().bottom) + "px",
      });
    }

    function conversationsOf(ticketId) {
      return client.request
        .invokeTemplate("freshdeskConversations", { context: { ticket_id: ticketId } })
        .then(function (response) {
          return V.parseJson(response.response) || [];
        });
    }

    function check() {
      var run = ++latest;
      card.loading();
      resize();
      Promise.all([client.data.get("ticket"), client.data.get("domainName")])
        .then(function (results) {
          var ticket = results[0].ticket;
          var id = String(ticket.id);
          return conversationsOf(id).then(
            function (conversations) {
              var messages = [ticket.description_text || V.textOfHtml(ticket.description || "")].concat(
                conversations.map(function (conversation) {
                  return conversation.body_text || V.textOfHtml(conversation.body || "");
                }),
              );
              return client.request
                .invokeTemplate("helpdeskLookup", {
                  body: JSON.stringify({
                    text: V.ticketText(ticket.subject, messages),
                    ticket: {
                      system: "freshdesk",
                      id: id,
                      url: "https://" + results[1].domainName + "/a/tickets/" + id,
                    },
                  }),
                })
                .then(
                  function (response) {
                    var body = V.parseJson(response.response);
                    if (run !== latest) return;
                    if (body && body.data) card.show(body.data);
                    else card.fail(failureOf(response));
                  },
                  function (response) {
                    if (run === latest) card.fail(failureOf(response));
                  },
                );
            },
            function () {
              if (run === latest) card.fail({ freshdesk: true });
            },
          );
        })
        .then(resize);
    }

    client.events.on("app.activated", check);
  });
})();
