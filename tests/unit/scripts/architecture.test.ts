// The floors hold: no file of a room imports a room above it or beside it (scripts/architecture.ts has the
// rooms and floors). A new import that breaks them fails here with the file and the import named.
import { describe, expect, it } from "vitest";

import { FLOORS, importProblem, imports, roomOf } from "@/scripts/architecture";

describe("the rooms and their floors", () => {
  const edges = imports();

  it("reads the imports of lib, app, components and the root entry points", () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges.some((edge) => edge.from === "proxy.ts" && edge.to === "lib/auth/edge.ts")).toBe(true);
  });

  it("no import runs up a floor or sideways", () => {
    const problems = edges.flatMap((edge) => {
      const problem = importProblem(edge);
      return problem ? [`${edge.from} imports "${edge.specifier}": ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("every file of lib, app and components belongs to a room", () => {
    const homeless = [...new Set(edges.map((edge) => edge.from))].filter((file) => roomOf(file) === null);
    expect(homeless).toEqual([]);
  });

  it("knows an upward and a sideways import when it sees one", () => {
    expect(importProblem({ from: "lib/db/index.ts", to: "lib/auth/users.ts", specifier: "@/lib/auth/users" })).toMatch(
      /a floor above it/,
    );
    expect(
      importProblem({ from: "lib/upstream/http.ts", to: "lib/auth/csrf.ts", specifier: "@/lib/auth/csrf" }),
    ).toMatch(/its own floor/);
    expect(
      importProblem({ from: "components/ui/badge.tsx", to: "lib/config/index.ts", specifier: "@/lib/config" }),
    ).toMatch(/may import only/);
    expect(
      importProblem({ from: "lib/api/route.ts", to: "lib/auth/csrf.ts", specifier: "@/lib/auth/csrf" }),
    ).toBeNull();
    expect(FLOORS.flat().map((room) => room.name)).toContain("contract");
  });
});
