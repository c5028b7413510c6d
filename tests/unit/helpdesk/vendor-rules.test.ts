// The packed apps against their vendors' rules, since neither vendor's own check runs here (docs/helpdesk.md says
// why): Zendesk's `zcli apps:validate` uploads the app to a Zendesk account's /api/v2/apps/validate, and Freshworks'
// `fdk validate` is not on the npm registry (npm's `fdk` is an unrelated package).
// - Zendesk: the rules of zendesk/zendesk_apps_support, the validator behind Zendesk's app builder
//   (lib/zendesk_apps_support/validations/{manifest,secure_settings,translations}.rb), and the Apps framework's
//   documented request rules: a secure setting is put only into a request marked `secure: true`, to a domain of
//   domainWhitelist, and only where its `scopes` allow.
// - Freshworks (platform 2.3): the manifest's product.freshdesk.location and requests, config/requests.json's
//   template schema, and which installation parameters a template may use where (secure ones in headers only).
import { describe, expect, it } from "vitest";

import { helpdeskAppFiles } from "@/scripts/helpdesk-apps";

const GATEHOUSE = "https://gatehouse.acme.test";
const text = (files: Map<string, Buffer>, name: string) => {
  const file = files.get(name);
  if (!file) throw new Error(`${name} is not in the app`);
  return file.toString("utf8");
};
const json = (files: Map<string, Buffer>, name: string) => JSON.parse(text(files, name)) as unknown;

describe("the Zendesk app, by zendesk_apps_support's rules", () => {
  const files = helpdeskAppFiles("zendesk", GATEHOUSE);
  const manifest = json(files, "manifest.json") as {
    author: Record<string, unknown>;
    defaultLocale: string;
    private: unknown;
    frameworkVersion: string;
    location: Record<string, Record<string, { url: string; flexible?: unknown }>>;
    domainWhitelist: unknown;
    parameters: {
      name: string;
      type?: string;
      required?: unknown;
      secure?: unknown;
      scopes?: unknown;
      default?: unknown;
    }[];
  };
  const PARAMETER_TYPES = ["text", "checkbox", "url", "number", "multiline", "hidden", "oauth", "mtls"];
  const SECURE_SCOPES = [
    "header",
    "body",
    "url",
    "jwt_secret_key",
    "jwt_claim",
    "basic_auth_username",
    "basic_auth_password",
  ];

  it("has manifest.json at the root with an author (name, email, http(s) url), a default locale and its translation", () => {
    expect(files.has("manifest.json")).toBe(true);
    for (const field of ["name", "email", "url"]) expect(typeof manifest.author[field]).toBe("string");
    expect(manifest.author.url).toMatch(/^https?:\/\//);
    expect(manifest.defaultLocale).toMatch(/^[a-z]{2,3}(-\w{2,3})?$/);
    expect(files.has(`translations/${manifest.defaultLocale}.json`)).toBe(true);
    expect(typeof manifest.private).toBe("boolean");
  });

  it("targets framework 2.0 in Support's ticket sidebar, its page an asset of the app", () => {
    expect(manifest.frameworkVersion).toBe("2.0");
    expect(Object.keys(manifest.location)).toEqual(["support"]);
    const sidebar = manifest.location.support!.ticket_sidebar!;
    expect(sidebar.url).toMatch(/^assets\//);
    expect(files.has(sidebar.url)).toBe(true);
    expect([undefined, true, false]).toContain(sidebar.flexible);
  });

  it("declares unique parameters of known types, booleans where booleans go, none called name", () => {
    const names = manifest.parameters.map((parameter) => parameter.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain("name");
    for (const parameter of manifest.parameters) {
      expect(PARAMETER_TYPES).toContain(parameter.type ?? "text");
      expect([undefined, true, false]).toContain(parameter.required);
      expect([undefined, true, false]).toContain(parameter.secure);
      expect(parameter.type === "hidden" && parameter.required).toBeFalsy();
    }
  });

  it("keeps the token secure, scoped to headers, without a default; every secret-sounding text parameter is secure", () => {
    for (const parameter of manifest.parameters) {
      if (/token|key|pwd|password/i.test(parameter.name) && ["text", "password"].includes(parameter.type ?? "text")) {
        expect(parameter.secure, parameter.name).toBe(true);
      }
      if (parameter.secure) {
        expect(Array.isArray(parameter.scopes) && parameter.scopes.length > 0, parameter.name).toBe(true);
        for (const scope of parameter.scopes as string[]) expect(SECURE_SCOPES).toContain(scope);
        expect(parameter.default, parameter.name).toBeUndefined();
      } else {
        expect(parameter.scopes, parameter.name).toBeUndefined();
      }
    }
    expect(manifest.parameters.find((parameter) => parameter.name === "token")).toMatchObject({
      secure: true,
      scopes: ["header"],
    });
  });

  it("whitelists the packed Gatehouse host, the host of the address setting's default", () => {
    expect(Array.isArray(manifest.domainWhitelist)).toBe(true);
    expect(manifest.domainWhitelist).toEqual(["gatehouse.acme.test"]);
    const address = manifest.parameters.find((parameter) => parameter.name === "gatehouse_url")!;
    expect(new URL(address.default as string).hostname).toBe("gatehouse.acme.test");
  });

  it("labels every parameter in the default locale's translation", () => {
    const translation = json(files, "translations/en.json") as {
      app: { parameters: Record<string, { label?: string }> };
    };
    for (const { name } of manifest.parameters) expect(translation.app.parameters[name]?.label, name).toBeTruthy();
  });

  it("puts {{setting.token}} only into a header of a request marked secure, and loads the SDK from Zendesk's CDN", () => {
    const app = text(files, "assets/app.js");
    const uses = app.split("\n").filter((line) => line.includes("{{setting.") && !line.trimStart().startsWith("//"));
    expect(uses).toEqual(['      headers: { Authorization: "Bearer {{setting.token}}" },']);
    const request = app.slice(app.indexOf("client.request({"), app.indexOf("});", app.indexOf("client.request({")));
    expect(request).toContain("secure: true,");
    expect(request).toContain("{{setting.token}}");
    expect(text(files, "assets/iframe.html")).toContain(
      '<script src="https://static.zdassets.com/zendesk_app_framework_sdk/2.0/zaf_sdk.min.js"></script>',
    );
  });
});

describe("the Freshdesk app, by Freshworks' platform 2.3 rules", () => {
  const files = helpdeskAppFiles("freshdesk", GATEHOUSE);
  const manifest = json(files, "manifest.json") as Record<string, unknown> & {
    "platform-version": string;
    product: {
      freshdesk: { location: Record<string, { url: string; icon?: string }>; requests: Record<string, unknown> };
    };
    engines: { node: string; fdk: string };
  };
  const iparams = json(files, "config/iparams.json") as Record<
    string,
    { display_name?: string; type?: string; secure?: boolean; required?: boolean }
  >;
  const templates = json(files, "config/requests.json") as Record<
    string,
    {
      schema: {
        protocol?: string;
        method: string;
        host: string;
        path?: string;
        headers?: Record<string, string>;
        query?: Record<string, string>;
      };
      options?: Record<string, unknown>;
    }
  >;
  const IPARAM = /<%=\s*(?:encode\()?\s*iparam\.(\w+)\s*\)?\s*%>/g;
  const iparamsIn = (value: string) => Array.from(value.matchAll(IPARAM), (match) => match[1]!);

  it("is a platform 2.3 app in Freshdesk's ticket sidebar, its page and icon in app/, without whitelisted-domains", () => {
    expect(manifest["platform-version"]).toBe("2.3");
    expect(manifest).not.toHaveProperty("whitelisted-domains");
    const sidebar = manifest.product.freshdesk.location.ticket_sidebar!;
    expect(files.has(`app/${sidebar.url}`)).toBe(true);
    expect(sidebar.icon).toMatch(/\.svg$/);
    expect(files.has(`app/${sidebar.icon}`)).toBe(true);
    expect(manifest.engines.node).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.engines.fdk).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("loads the app client the way Freshworks serves it: {{{appclient}}}", () => {
    expect(text(files, "app/index.html")).toContain('<script src="{{{appclient}}}"></script>');
  });

  it("declares in the manifest exactly the request templates config/requests.json defines, and the app invokes", () => {
    expect(Object.keys(manifest.product.freshdesk.requests).sort()).toEqual(Object.keys(templates).sort());
    const invoked = Array.from(
      text(files, "app/scripts/app.js").matchAll(/invokeTemplate\("(\w+)"/g),
      (match) => match[1],
    );
    expect([...new Set(invoked)].sort()).toEqual(Object.keys(templates).sort());
    for (const name of Object.keys(templates)) expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("gives every template the documented schema: https, a method, a bare host, a path from /, known content types", () => {
    for (const [name, { schema, options }] of Object.entries(templates)) {
      expect(schema.protocol ?? "https", name).toBe("https");
      expect(["GET", "POST", "PUT", "DELETE", "PATCH"], name).toContain(schema.method);
      expect(schema.host, name).not.toMatch(/^[a-z]+:\/\/|\/$/);
      expect(schema.path ?? "/", name).toMatch(/^\//);
      const contentType = schema.headers?.["Content-Type"];
      if (contentType) expect(["application/json", "application/xml", "text/plain"], name).toContain(contentType);
      expect(options ?? {}, name).toEqual({});
    }
  });

  it("uses secure installation parameters in headers only, and only parameters iparams.json defines", () => {
    for (const [name, { schema }] of Object.entries(templates)) {
      const inHeaders = Object.values(schema.headers ?? {}).flatMap(iparamsIn);
      const elsewhere = [schema.host, schema.path ?? "", ...Object.values(schema.query ?? {})].flatMap(iparamsIn);
      for (const key of [...inHeaders, ...elsewhere]) expect(Object.keys(iparams), `${name}: ${key}`).toContain(key);
      for (const key of elsewhere) expect(iparams[key]!.secure, `${name}: ${key} outside the headers`).toBeFalsy();
    }
    expect(templates.helpdeskLookup!.schema.headers!.Authorization).toBe("Bearer <%= iparam.gatehouse_token %>");
  });

  it("keeps both secrets in secure, required installation parameters, each with a name an admin reads", () => {
    for (const [key, iparam] of Object.entries(iparams)) {
      expect(iparam.display_name, key).toBeTruthy();
      expect(iparam.required, key).toBe(true);
    }
    expect(iparams.gatehouse_token!.secure).toBe(true);
    expect(iparams.freshdesk_api_key!.secure).toBe(true);
    expect(iparams.gatehouse_host!.secure).toBeFalsy();
  });
});
