// zxcvbn-ts, the password estimator, kept out of the process that asks: its dictionaries take about 100 MB of a
// server's memory and make every garbage collection of a busy server dearer (a bare Next.js app holding them took
// 103 MB more RSS and 15% more CPU per request), for a check made a few times a day. So they live in a worker
// thread, started by the first check and ended after a minute without one, which frees all of it.
//
// A check stays synchronous for its callers (zod refinements, the start-up check of ADMIN_PASSWORD): the caller
// waits on the worker's answer (Atomics.wait on a shared flag, then receiveMessageOnPort), as it waited on the
// estimate itself when it ran in process. This is the only Node module of lib/contract; it does no I/O.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";

/** What the policy reads of zxcvbn's result. */
export interface Estimate {
  /** 0–4: zxcvbn's guessability score. */
  score: number;
  /** zxcvbn's warning, when it has one ("This is a top-10 common password."). */
  warning: string | null;
}

/** The worker, as a script: it loads the estimator from node_modules, resolved from this file, once. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { port, flag, from } = workerData;
let estimator;
let loadError = null;
try {
  const load = require("node:module").createRequire(from);
  const { ZxcvbnFactory } = load("@zxcvbn-ts/core");
  const common = load("@zxcvbn-ts/language-common");
  const english = load("@zxcvbn-ts/language-en");
  estimator = new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
} catch (error) {
  loadError = String(error && error.message || error);
}
port.on("message", ({ password, inputs }) => {
  let answer;
  try {
    if (loadError) throw new Error(loadError);
    const result = estimator.check(password, inputs);
    answer = { score: result.score, warning: result.feedback.warning || null };
  } catch (error) {
    answer = { error: String(error && error.message || error) };
  }
  port.postMessage(answer);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

/** How long one check may take, the worker's start and the dictionaries' load included (about 0.3 s). */
const ANSWER_TIMEOUT_MS = 30_000;

export interface PasswordEstimator {
  /** zxcvbn's estimate of `password`, knowing the words of the account (`inputs`); throws if the worker fails. */
  check(password: string, inputs: readonly string[]): Estimate;
  /** Ends the worker now (the next check starts another); resolves once it has exited. */
  stop(): Promise<void>;
  /** Whether a worker is running. */
  readonly running: boolean;
}

/**
 * An estimator whose worker ends after `keptMs` without a check; it loads zxcvbn-ts as a module at `resolveFrom`
 * would (default: this file).
 */
export function passwordEstimator(options: { keptMs: number; resolveFrom?: string }): PasswordEstimator {
  let current: { worker: Worker; port: MessagePort; flag: Int32Array; exited: Promise<void> } | null = null;
  let idle: ReturnType<typeof setTimeout> | undefined;

  const start = () => {
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { port: port2, flag, from: options.resolveFrom ?? import.meta.url },
      transferList: [port2],
    });
    // Never what keeps a process (the users CLI, a test) alive.
    worker.unref();
    const started = {
      worker,
      port: port1,
      flag,
      exited: new Promise<void>((resolve) => worker.once("exit", () => resolve())),
    };
    worker.once("exit", () => {
      if (current === started) current = null;
      port1.close();
    });
    return started;
  };

  const stop = async () => {
    clearTimeout(idle);
    const ending = current;
    current = null;
    if (!ending) return;
    await ending.worker.terminate();
    await ending.exited;
  };

  return {
    check(password, inputs) {
      current ??= start();
      const { port, flag } = current;
      Atomics.store(flag, 0, 0);
      port.postMessage({ password, inputs: [...inputs] });
      const waited = Atomics.wait(flag, 0, 0, ANSWER_TIMEOUT_MS);
      const answer = receiveMessageOnPort(port)?.message as
        (Estimate & { error?: undefined }) | { error: string } | undefined;
      clearTimeout(idle);
      idle = setTimeout(() => void stop(), options.keptMs);
      idle.unref();
      if (!answer) {
        void stop();
        throw new Error(
          waited === "timed-out"
            ? `the password estimator did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`
            : "the password estimator ended without answering",
        );
      }
      if (answer.error !== undefined) throw new Error(`the password estimator failed: ${answer.error}`);
      return { score: answer.score, warning: answer.warning };
    },
    stop,
    get running() {
      return current !== null;
    },
  };
}
