// Process facts from Linux's /proc, for tests that measure what a server process costs: the CPU time a process and
// every process it started have used, in clock ticks (utime + stime), read at one moment; which processes there
// are, what program each runs, and which one listens on a port.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

interface ProcStat {
  pid: number;
  ppid: number;
  ticks: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null; // ended meanwhile
  }
}

function processTree(root: number): ProcStat[] {
  const all = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcStat => stat !== null);
  const inTree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const stat of all) {
      if (!inTree.has(stat.pid) && inTree.has(stat.ppid)) {
        inTree.add(stat.pid);
        grew = true;
      }
    }
  }
  return all.filter((stat) => inTree.has(stat.pid));
}

/** CPU time (clock ticks) of `root` and all its descendants, as /proc shows them now. */
export function treeCpuTicks(root: number): number {
  return processTree(root).reduce((sum, stat) => sum + stat.ticks, 0);
}

/** The ids of `root` and all its descendants now (npm, its shell, and the Next.js server under them). */
export function treePids(root: number): number[] {
  return processTree(root).map((stat) => stat.pid);
}

/** SIGKILLs those of `pids` still running: a test's own processes that outlived their stop. */
export function killSurvivors(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already ended
    }
  }
}

/** The program file `pid` runs (its title may say otherwise: Next calls itself "next-server"), or null once it ended. */
export function executable(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/** Which of `pids` holds the socket listening on TCP `port` (IPv4 or IPv6), or null. */
export function listenerOf(port: number, pids: number[]): number | null {
  const sockets = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue; // no IPv6
    }
    for (const line of text.trim().split("\n").slice(1)) {
      // sl local_address(ADDR:PORT, hex) rem_address st(0A = LISTEN) tx:rx tr:when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      if (parseInt(fields[1]?.split(":")[1] ?? "", 16) === port && fields[3] === "0A")
        sockets.add(`socket:[${fields[9]}]`);
    }
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // ended meanwhile
    }
    for (const fd of fds) {
      try {
        if (sockets.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return null;
}
