// Area A's state (the only state clients can change) in one JSON file, `<dataDir>/state.json`. Writes are
// debounced and atomic (temp file + rename), so a crash leaves the previous or the new file, never half of one.
// Area B is read-only to its clients and regenerated from the seed on every start, so it is not stored.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

import { z } from "zod";

import { seedReports, type ReportResult, type ReportsData } from "./seed";

const STATE_VERSION = 1;
const SAVE_DELAY_MS = 25;

const stateFileSchema = z.object({
  version: z.literal(STATE_VERSION),
  reports: z.object({
    nextReportId: z.number().int().positive(),
    reports: z.array(
      z.object({
        id: z.number().int().positive(),
        url: z.string(),
        project: z.string(),
        result: z.enum(["good", "decent", "bad"]),
        generated_at: z.string(),
        privacy: z.union([z.literal(0), z.literal(1), z.literal(2)]),
        password: z.string().nullable(),
        revision: z.number().int().nonnegative(),
        created_at: z.string(),
        updated_at: z.string(),
      }),
    ),
    projects: z.array(z.object({ project: z.string(), created_at: z.string() })),
  }),
});

/** A result the control API set for a report's next regeneration (not saved: tests set it right before use). */
export interface NextResult {
  result: ReportResult;
  /** The regeneration's generated_at; the time of the regeneration when absent. */
  generated_at?: string;
}

export class ReportsStore {
  /** Report id → the result its next `results=1` gives (POST /__sandbox/reports/{id}/result). */
  readonly nextResults = new Map<number, NextResult>();
  private saveTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    public data: ReportsData,
    private readonly warn: (message: string) => void,
  ) {}

  /** Loads `<dataDir>/state.json`, or seeds (and writes) it when absent, unreadable or `reset` is asked. */
  static async open(dataDir: string, opts: { reset: boolean; warn: (message: string) => void }): Promise<ReportsStore> {
    await mkdir(dataDir, { recursive: true });
    const file = path.join(dataDir, "state.json");
    const saved = opts.reset ? null : await readState(file, opts.warn);
    const store = new ReportsStore(file, saved ?? seedReports(), opts.warn);
    if (!saved) await store.flush();
    return store;
  }

  /** Call after every mutation of `data`. */
  changed(): void {
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = null;
      void this.write();
    }, SAVE_DELAY_MS);
  }

  reseed(): void {
    this.data = seedReports();
    this.nextResults.clear();
    this.changed();
  }

  /** Writes now if a save is pending (or always, when nothing was written yet) and waits for it. */
  async flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = null;
    }
    await this.write();
  }

  private write(): Promise<void> {
    // Serialised: the snapshot is taken when this write's turn comes, so the last write holds the last state.
    this.saving = this.saving.then(async () => {
      const temp = `${this.file}.${process.pid}.tmp`;
      try {
        await writeFile(temp, JSON.stringify({ version: STATE_VERSION, reports: this.data }));
        await rename(temp, this.file);
      } catch (error) {
        // The sandbox keeps serving from memory; the next change tries again.
        this.warn(`cannot save ${this.file}: ${String(error)}`);
      }
    });
    return this.saving;
  }
}

async function readState(file: string, warn: (message: string) => void): Promise<ReportsData | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") warn(`cannot read ${file} (${String(error)}); reseeding`);
    return null;
  }
  try {
    const parsed = stateFileSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data.reports;
    warn(`${file} is not a sandbox state file of version ${STATE_VERSION}; reseeding`);
  } catch {
    warn(`${file} is not valid JSON; reseeding`);
  }
  return null;
}
