// The start-up check: every setting, at once, before the server answers anything. `npm start` runs it before it
// starts Next (so a bad configuration never listens), and instrumentation.ts again inside the server (for
// `next start` run directly). Problems are printed one line each and stop the start; warnings go to the log.
import "server-only";

import { loadServerConfig } from "./server";
import { sessionSecretEntries } from "./session";
import { parseEdgeSettings } from "./edge";
import { isConfigError, NO_UPSTREAM, readEnv, type ConfigProblem } from "./env";
import { findLookalikes, type Lookalike } from "./lookalikes";
import { readSignInSettings } from "./oidc";
import { demoFlagProblem, modeOf, type Mode } from "./mode";
import { reviewSafety } from "./safety";
import { readDatabaseUrl } from "./store";
import { readTelemetrySettings } from "./telemetry";
import { CONFIGURED_ONLY, RETIRED_VARIABLES } from "./variables";

type Env = Record<string, string | undefined>;

export interface ConfigCheck {
  mode: Mode;
  /** Each stops the start: printed one line each (formatProblem), then exit 1. */
  problems: ConfigProblem[];
  /** Insecure or ignored settings: one log line each, at level warn. */
  warnings: string[];
  /** Plain facts worth a log line (what demo mode ignores). */
  notes: string[];
}

const set = (env: Env, name: string) => env[name] !== undefined && env[name].trim() !== "";

export function checkConfiguration(env: Env = process.env): ConfigCheck {
  const mode = modeOf(env);
  const problems: ConfigProblem[] = [];
  const warnings: string[] = [];
  const notes: string[] = [];

  const flag = demoFlagProblem(env);
  if (flag) problems.push({ variable: "GATEHOUSE_DEMO", problem: flag, value: env.GATEHOUSE_DEMO });
  for (const [variable, problem] of Object.entries(RETIRED_VARIABLES))
    if (set(env, variable)) problems.push({ variable, problem });

  const lookalikes = findLookalikes(Object.keys(env).filter((name) => set(env, name)));
  if (mode === "demo") {
    const ignored = CONFIGURED_ONLY.filter((name) => set(env, name));
    if (ignored.length > 0)
      notes.push(`Demo mode ignores ${ignored.join(", ")}: it keeps its own store, secret and accounts.`);
    for (const found of lookalikes) warnings.push(lookalikeWarning(found));
    // The upstream areas are the sandbox's; the rest (policies, limits) is read as usual.
    readEnv(
      Object.fromEntries(Object.entries(env).filter(([name]) => !CONFIGURED_ONLY.includes(name as never))),
      problems,
    );
    collectAuth(env, true, problems);
    // Traces are read in both modes: a demo can be traced too.
    problems.push(...readTelemetrySettings(env).problems);
    return { mode, problems, warnings, notes };
  }

  for (const found of lookalikes) {
    // A near-miss of a setting that is not set: the operator meant it, and it would be ignored. Refused.
    if (found.typo && !set(env, found.suggestion)) {
      problems.push({
        variable: found.name,
        problem: `is not a Gatehouse setting, so it would be ignored; did you mean ${found.suggestion}?`,
      });
    } else {
      warnings.push(lookalikeWarning(found));
    }
  }

  const gateway = readEnv(env, problems);
  // A bad area variable is its own problem; "no upstream" is for when none is set at all.
  const areaVariables = ["REPORTS_API_BASE_URL", "REPORTS_API_KEY", "ITEMS_API_BASE_URL", "ITEMS_API_KEY"];
  const areaProblems = problems.some((p) => areaVariables.includes(p.variable));
  if (!gateway.upstream.reports && !gateway.upstream.items && !areaProblems)
    problems.push({ variable: "", problem: NO_UPSTREAM });

  collectAuth(env, false, problems);
  const signIn = readSignInSettings(env);
  problems.push(...signIn.problems);
  warnings.push(...signIn.warnings);
  const store = readDatabaseUrl(env.DATABASE_URL);
  if ("problem" in store) problems.push({ variable: "DATABASE_URL", problem: store.problem });
  problems.push(...readTelemetrySettings(env).problems);

  // Reviewed from the environment itself, not from `auth`: a refused ADMIN_PASSWORD must not hide a guessable
  // SESSION_SECRET (every problem at once). Warnings are logged only by a start that goes ahead.
  const edge = parseEdgeSettings(env).settings;
  const secret = env.SESSION_SECRET?.trim();
  const review = reviewSafety(env, {
    publicOrigin: edge.publicOrigin,
    allowedHosts: edge.allowedHosts,
    trustProxyHops: edge.trustProxyHops,
    purchaseChecks: gateway.upstream.items !== null,
    sessionSecrets: secret ? sessionSecretEntries(secret) : [],
  });
  // One line per variable: a value already refused (too short, say) is not also called guessable.
  problems.push(...review.problems.filter((found) => !problems.some((known) => known.variable === found.variable)));
  warnings.push(...review.warnings);
  return { mode, problems: withLookalikeHints(problems, lookalikes, env), warnings, notes };
}

function collectAuth(env: Env, demoMode: boolean, problems: ConfigProblem[]) {
  try {
    return loadServerConfig({ env, demoMode });
  } catch (error) {
    if (!isConfigError(error)) throw error;
    problems.push(...error.problems);
    return null;
  }
}

function lookalikeWarning({ name, suggestion }: Lookalike): string {
  return `${name} is not a Gatehouse setting and is ignored; did you mean ${suggestion}?`;
}

/** "REPORTS_API_KEY is missing…" gains "(REPORTS_API_TOKEN is set: did you mean REPORTS_API_KEY?)". */
function withLookalikeHints(problems: ConfigProblem[], lookalikes: Lookalike[], env: Env): ConfigProblem[] {
  return problems.map((problem) => {
    if (set(env, problem.variable)) return problem;
    const hint = lookalikes.find((found) => found.suggestion === problem.variable);
    return hint
      ? { ...problem, problem: `${problem.problem} (${hint.name} is set: did you mean ${problem.variable}?)` }
      : problem;
  });
}
